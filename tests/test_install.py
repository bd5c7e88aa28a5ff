#!/usr/bin/env python3
"""Installs the build into a temporary prefix and builds tests/install/consumer.c
against the installed tree: with CMake's find_package(fastjson) (shared and
static targets) and with pkg-config and plain cc (shared and static). Checks
the installed file names, the soname, and that nothing collides with Debian's
unrelated libfastjson (rsyslog's; if its -dev package is installed, a program
also links both libraries at once).

usage: test_install.py BUILD_DIR SOURCE_DIR CMAKE C_COMPILER GENERATOR [CFLAGS [LDFLAGS]]
"""
import os
import shlex
import shutil
import subprocess
import sys
import tempfile

build, source, cmake, cc, generator = sys.argv[1:6]
cflags = shlex.split(sys.argv[6]) if len(sys.argv) > 6 else []
ldflags = shlex.split(sys.argv[7]) if len(sys.argv) > 7 else []
failures = []


def run(cmd, env=None, cwd=None):
    print("+ " + " ".join(shlex.quote(c) for c in cmd), flush=True)
    r = subprocess.run(cmd, env=env, cwd=cwd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                       universal_newlines=True)
    if r.returncode != 0:
        print(r.stdout)
        sys.exit("FAIL: exit %d" % r.returncode)
    return r.stdout


def check(cond, what):
    print(("ok   " if cond else "FAIL ") + what, flush=True)
    if not cond:
        failures.append(what)


def check_consumer_output(out, how):
    lines = out.strip().split("\n")
    check(lines[0] == '{"name":"café","sum":6}' and lines[1].startswith("fastjson "),
          "%s consumer output: %r" % (how, out))


# Debian's libfastjson (rsyslog): the names its packages install. From dpkg
# when the packages are installed, else the list of libfastjson-dev 1.2304 /
# libfastjson4.
RSYSLOG = {"include/libfastjson", "libfastjson.so", "libfastjson.so.4", "libfastjson.a",
           "libfastjson.pc"}


def rsyslog_names():
    names = set(RSYSLOG)
    for pkg in ("libfastjson-dev", "libfastjson4"):
        r = subprocess.run(["dpkg", "-L", pkg], stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
                           universal_newlines=True) if shutil.which("dpkg") else None
        if r and r.returncode == 0:
            for path in r.stdout.split():
                if path.startswith("/usr/include/"):
                    names.add("include/" + path[len("/usr/include/"):])
                elif "/lib/" in path and not path.startswith("/usr/share"):
                    names.add(os.path.basename(path))
    return names


with tempfile.TemporaryDirectory(prefix="fj-install-") as tmp:
    prefix = os.path.join(tmp, "prefix")
    run([cmake, "--install", build, "--prefix", prefix])
    installed = []
    for d, _, files in os.walk(prefix):
        installed += [os.path.relpath(os.path.join(d, f), prefix) for f in files]
    print("\n".join(sorted(installed)))
    libdir = next(os.path.dirname(f) for f in installed if os.path.basename(f) == "libfjson.a")
    libdir_abs = os.path.join(prefix, libdir)

    # the files
    for f in ["include/fastjson.h", "include/fastjson/parser.h", "include/fastjson/writer.h",
              libdir + "/libfjson.a", libdir + "/libfjson.so", libdir + "/pkgconfig/fastjson.pc",
              libdir + "/cmake/fastjson/fastjsonConfig.cmake",
              libdir + "/cmake/fastjson/fastjsonConfigVersion.cmake",
              libdir + "/cmake/fastjson/fastjsonTargets.cmake", "bin/fastjson"]:
        check(os.path.lexists(os.path.join(prefix, f)), "installed " + f)
    # each exported target names the installed include directory once
    with open(os.path.join(prefix, libdir, "cmake/fastjson/fastjsonTargets.cmake")) as t:
        dirs = [l.split('"')[1] for l in t if "INTERFACE_INCLUDE_DIRECTORIES" in l]
    check(dirs and all(d.split(";").count("${_IMPORT_PREFIX}/include") == 1 for d in dirs),
          "include directory listed once per target: %s" % dirs)
    headers = sorted(f for f in os.listdir(os.path.join(source, "include", "fastjson")))
    check(sorted(os.listdir(os.path.join(prefix, "include", "fastjson"))) == headers,
          "every public header installed")
    readelf = shutil.which("readelf")
    if readelf:
        dyn = run([readelf, "-d", os.path.join(libdir_abs, "libfjson.so")])
        soname = [l for l in dyn.split("\n") if "SONAME" in l]
        check(soname and "[libfjson.so.0" in soname[0], "soname libfjson.so.0.*: %s" % soname)
        check(os.path.exists(os.path.join(libdir_abs, soname[0].split("[")[1].rstrip("]")))
              if soname else False, "the soname's file is installed")
    out = run([os.path.join(prefix, "bin", "fastjson"), "--version"])
    check(out.startswith("fastjson "), "installed fastjson --version: " + out.strip())

    # no name in common with rsyslog's libfastjson
    ours = set()
    for f in installed:
        if f.startswith("include/"):
            ours.add(f)
            ours.add("include/" + f.split("/")[1])
        else:
            ours.add(os.path.basename(f))
    clash = ours & rsyslog_names()
    check(not clash, "no file name shared with rsyslog's libfastjson %s" % sorted(clash))

    # CMake: find_package(fastjson) -> fastjson::fastjson, fastjson::fastjson_static
    cbuild = os.path.join(tmp, "cmake-consumer")
    run([cmake, "-S", os.path.join(source, "tests", "install"), "-B", cbuild, "-G", generator,
         "-DCMAKE_PREFIX_PATH=" + prefix, "-DCMAKE_C_COMPILER=" + cc,
         "-DCMAKE_C_FLAGS=" + " ".join(cflags), "-DCMAKE_EXE_LINKER_FLAGS=" + " ".join(ldflags)])
    run([cmake, "--build", cbuild])
    for kind in ("shared", "static"):
        exe = os.path.join(cbuild, "consumer_" + kind)
        check_consumer_output(run([exe]), "CMake " + kind)
    codec = os.path.join(cbuild, "consumer_codec")
    if os.path.exists(codec):  # fastjson_generate() with the installed generator
        out = run([codec]).strip()
        check(out == '{"x":7,"y":-2,"label":"p"}', "fastjson_generate() consumer wrote %r" % out)
    else:
        print("SKIP fastjson_generate(): no installed fastjson-gen")
    ldd = shutil.which("ldd")
    if ldd:
        out = run([ldd, os.path.join(cbuild, "consumer_shared")])
        check(os.path.join(libdir_abs, "libfjson.so.0") in out,
              "CMake shared consumer loads the installed libfjson")
        out = run([ldd, os.path.join(cbuild, "consumer_static")])
        check("libfjson" not in out, "CMake static consumer has no libfjson dependency")

    # pkg-config and plain cc
    pkgconfig = shutil.which("pkg-config") or shutil.which("pkgconf")
    if not pkgconfig:
        print("SKIP pkg-config: not installed")
    else:
        env = dict(os.environ)
        env["PKG_CONFIG_PATH"] = os.path.join(libdir_abs, "pkgconfig") + (
            ":" + env["PKG_CONFIG_PATH"] if env.get("PKG_CONFIG_PATH") else "")
        pc_cflags = shlex.split(run([pkgconfig, "--cflags", "fastjson"], env=env))
        pc_libs = shlex.split(run([pkgconfig, "--libs", "fastjson"], env=env))
        check("-lfjson" in pc_libs, "pkg-config --libs fastjson: %s" % pc_libs)
        check(run([pkgconfig, "--variable=libdir", "fastjson"], env=env).strip() == libdir_abs,
              "fastjson.pc has the install prefix's libdir")
        src = os.path.join(source, "tests", "install", "consumer.c")
        exe = os.path.join(tmp, "pc-shared")
        run([cc] + cflags + pc_cflags + [src, "-o", exe] + pc_libs + ldflags)
        env_run = dict(os.environ, LD_LIBRARY_PATH=libdir_abs)
        check_consumer_output(run([exe], env=env_run), "pkg-config shared")
        exe = os.path.join(tmp, "pc-static")
        run([cc] + cflags + pc_cflags + [src, "-o", exe, os.path.join(libdir_abs, "libfjson.a")] +
            ldflags)
        check_consumer_output(run([exe]), "pkg-config static")

        # with rsyslog's libfastjson installed: one program links both
        r = subprocess.run([pkgconfig, "--exists", "libfastjson"], env=env)
        if r.returncode != 0:
            print("SKIP both libraries in one program: rsyslog's libfastjson-dev not installed")
        else:
            both_cflags = shlex.split(run([pkgconfig, "--cflags", "fastjson", "libfastjson"],
                                          env=env))
            both_libs = shlex.split(run([pkgconfig, "--libs", "fastjson", "libfastjson"], env=env))
            exe = os.path.join(tmp, "both")
            run([cc] + cflags + both_cflags +
                [os.path.join(source, "tests", "install", "both.c"), "-o", exe] + both_libs +
                ldflags)
            out = run([exe], env=env_run)
            check(out.strip() == "ours 42, rsyslog's 7", "both libraries in one program: " +
                  out.strip())

if failures:
    sys.exit("%d check(s) failed" % len(failures))
print("all install checks passed")
