# Stage-1 kernels compiled into this build, and the dispatcher.
set(FJ_KERNEL_SOURCES
  ${CMAKE_CURRENT_LIST_DIR}/dispatch.c
  ${CMAKE_CURRENT_LIST_DIR}/kernel_scalar.c
)
