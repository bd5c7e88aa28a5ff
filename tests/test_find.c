/* Field lookups (fj_object_find/findn, fj_object_next) against a model of
 * their documented rule, on random objects and random sequences of calls.
 *
 * Why: lookups in objects read out of order are answered from a field table
 * (src/ondemand/field_table.c) once a lookup wraps around; the table must
 * give exactly what the linear search gives: the first matching field at or
 * after the cursor, wrapping once, with duplicate keys, escaped keys,
 * misses (cursor unchanged) and entered children in between.
 *
 * The oracle is a model written from parser.h's words: the object is a list
 * of (unescaped key, value number); the cursor is the field after the last
 * one returned; a lookup searches from the cursor to the end, then from the
 * start up to the cursor. Values are each field's number, so a wrong field
 * shows up as a wrong number. A fixed seed keeps failures reproducible. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fastjson.h"
#include "ondemand/field_table.h" /* the table itself, to check its probes */

#define EXPECT(call, code) assert_string_equal(fj_error_name(call), fj_error_name(code))
#define OK(call) EXPECT(call, FJ_OK)

enum { MAX_FIELDS = 48, KEYS = 14, ALL_KEYS = KEYS + MAX_FIELDS };

/* Key spellings: index k's unescaped key is names[k] (for k >= KEYS: "fK"),
 * written in JSON with its backslash escaped (key 2 holds one). Keys 0 and 1
 * have a second, \u-escaped spelling. */
static const char *const names[KEYS] = {"a",
                                        "bb",
                                        "c\\d",
                                        "id",
                                        "user",
                                        "name",
                                        "count",
                                        "zz9",
                                        "k",
                                        "key",
                                        "x",
                                        "y",
                                        "longer_than_16_bytes_key",
                                        "\xC3\xA9t\xC3\xA9"};
static const char *const escaped[2] = {"\\u0061", "b\\u0062"};

static uint64_t rng_state;
static uint32_t rnd(uint32_t n) { /* xorshift64*, uniform enough for tests */
  rng_state ^= rng_state >> 12;
  rng_state ^= rng_state << 25;
  rng_state ^= rng_state >> 27;
  return (uint32_t)((rng_state * 0x2545F4914F6CDD1Dull) >> 33) % n;
}

typedef struct model {
  int key[MAX_FIELDS];    /* key index of each field */
  int nested[MAX_FIELDS]; /* 0: the value is the number i; 1: [i, {...}]; 2: {"v": i, ...} */
  int n;
  int cursor; /* the field a lookup starts at */
} model;

/* Writes a random object of m->n fields; field i's value holds the number i. */
static size_t write_object(model *m, char *out, size_t cap) {
  size_t len = 0;
  len += (size_t)snprintf(out + len, cap - len, "{");
  for (int i = 0; i < m->n; i++) {
    int k = m->key[i];
    if (k >= KEYS) {
      len += (size_t)snprintf(out + len, cap - len, "%s\"f%d\" : ", i ? ", " : "", k);
    } else {
      len += (size_t)snprintf(out + len, cap - len, "%s\"", i ? ", " : "");
      if (k < 2 && rnd(3) == 0) {
        len += (size_t)snprintf(out + len, cap - len, "%s", escaped[k]);
      } else {
        for (const char *c = names[k]; *c && len + 2 < cap; c++) { /* JSON-escape '\\' */
          if (*c == '\\') out[len++] = '\\';
          out[len++] = *c;
        }
      }
      len += (size_t)snprintf(out + len, cap - len, "\" : ");
    }
    if (m->nested[i] == 1)
      len += (size_t)snprintf(out + len, cap - len, "[%d, {\"a\": [1, {\"b\": 2}]}]", i);
    else if (m->nested[i] == 2)
      len += (size_t)snprintf(out + len, cap - len, "{\"v\": %d, \"w\": [[], {}]}", i);
    else
      len += (size_t)snprintf(out + len, cap - len, "%d", i);
  }
  len += (size_t)snprintf(out + len, cap - len, "}");
  assert_true(len < cap);
  return len;
}

/* The number held by a field's value; sometimes enters the value and leaves
 * it partly read, as callers do. */
static int64_t value_number(const model *m, int field, fj_value *v) {
  int64_t x = -1;
  if (m->nested[field] == 1) {
    fj_array a;
    fj_value e;
    OK(fj_value_get_array(v, &a));
    OK(fj_array_next(&a, &e));
    OK(fj_value_get_int64(&e, &x));
  } else if (m->nested[field] == 2) {
    fj_object o;
    fj_value e;
    OK(fj_value_get_object(v, &o));
    OK(fj_object_find(&o, "v", &e));
    OK(fj_value_get_int64(&e, &x));
  } else {
    OK(fj_value_get_int64(v, &x));
  }
  return x;
}

/* The model's answer to a lookup of key k: the field, or -1. */
static int model_find(const model *m, int k) {
  for (int step = 0; step < m->n; step++) {
    int i = (m->cursor + step) % m->n;
    if (m->key[i] == k) return i;
  }
  return -1;
}

/* One random object and a random sequence of lookups and steps. */
static void one_object(fj_parser *p, char *buf, size_t cap) {
  model m = {.n = (int)rnd(MAX_FIELDS + 1)};
  if (rnd(2)) { /* distinct keys, the shape a field table can describe */
    int pool[ALL_KEYS];
    for (int k = 0; k < ALL_KEYS; k++)
      pool[k] = k;
    for (int i = 0; i < m.n; i++) { /* a random draw without repeats */
      int j = i + (int)rnd((uint32_t)(ALL_KEYS - i));
      int t = pool[i];
      pool[i] = pool[j];
      pool[j] = t;
      m.key[i] = pool[i];
    }
  } else { /* few distinct keys: many duplicates */
    int distinct = 1 + (int)rnd(KEYS);
    for (int i = 0; i < m.n; i++)
      m.key[i] = (int)rnd((uint32_t)distinct);
  }
  for (int i = 0; i < m.n; i++)
    m.nested[i] = rnd(4) == 0 ? 1 + (int)rnd(2) : 0;
  size_t len = write_object(&m, buf, cap);
  char *doc = malloc(len); /* exact size: ASan sees any overread */
  assert_non_null(doc);
  memcpy(doc, buf, len);
  fj_value root, key, val;
  fj_object o;
  OK(fj_parser_parse(p, doc, len, &root));
  OK(fj_value_get_object(&root, &o));
  bool ended = false;
  for (int op = 0, ops = (int)rnd(80); op < ops && !ended; op++) {
    if (rnd(6) == 0) { /* step with fj_object_next */
      fj_error err = fj_object_next(&o, &key, &val);
      if (m.cursor >= m.n) {
        EXPECT(err, FJ_END);
        ended = true;
        continue;
      }
      OK(err);
      assert_int_equal(value_number(&m, m.cursor, &val), m.cursor);
      m.cursor++;
      continue;
    }
    int k = (int)rnd(ALL_KEYS + 1); /* ALL_KEYS: a key that is never present */
    char generated[16];
    snprintf(generated, sizeof generated, "f%d", k);
    const char *name = k < KEYS ? names[k] : k < ALL_KEYS ? generated : "absent";
    int want = k < ALL_KEYS ? model_find(&m, k) : -1;
    fj_error err =
        rnd(2) ? fj_object_find(&o, name, &val) : fj_object_findn(&o, name, strlen(name), &val);
    if (want < 0) {
      EXPECT(err, FJ_ERR_NO_SUCH_FIELD);
      continue;
    }
    OK(err);
    assert_int_equal(value_number(&m, want, &val), want);
    m.cursor = want + 1;
  }
  free(doc);
}

static void lookups_follow_the_model(void **state) {
  (void)state;
  fj_parser *p;
  OK(fj_parser_new(&p, NULL));
  static char buf[MAX_FIELDS * 96 + 16];
  rng_state = 0x9E3779B97F4A7C15ull;
  for (int i = 0; i < 4000; i++)
    one_object(p, buf, sizeof buf);
  fj_parser_free(p);
}

/* The case field tables exist for: all fields read in the reverse of the
 * document's order, in a big object, then a miss and a step. */
static void reverse_order_in_a_big_object(void **state) {
  (void)state;
  fj_parser *p;
  OK(fj_parser_new(&p, NULL));
  static char doc[64 * 24];
  size_t len = 0;
  len += (size_t)snprintf(doc + len, sizeof doc - len, "{");
  for (int i = 0; i < 64; i++)
    len += (size_t)snprintf(doc + len, sizeof doc - len, "%s\"f%d\": %d", i ? "," : "", i, i * 7);
  len += (size_t)snprintf(doc + len, sizeof doc - len, "}");
  for (int round = 0; round < 2; round++) { /* the second round reuses the table memory */
    fj_value root, val, key;
    fj_object o;
    OK(fj_parser_parse(p, doc, len, &root));
    OK(fj_value_get_object(&root, &o));
    for (int i = 63; i >= 0; i--) {
      char name[8];
      int64_t x;
      snprintf(name, sizeof name, "f%d", i);
      OK(fj_object_find(&o, name, &val));
      OK(fj_value_get_int64(&val, &x));
      assert_int_equal(x, i * 7);
    }
    EXPECT(fj_object_find(&o, "f64", &val), FJ_ERR_NO_SUCH_FIELD);
    EXPECT(fj_object_find(&o, "f", &val), FJ_ERR_NO_SUCH_FIELD);
    OK(fj_object_next(&o, &key, &val)); /* the cursor is after f0 */
    int64_t x;
    OK(fj_value_get_int64(&val, &x));
    assert_int_equal(x, 7);
  }
  fj_parser_free(p);
}

/* Parses doc, an object whose field i is keys + i * stride with the value
 * i, and finds its n keys in reverse order, each value checked: every
 * lookup after the first wraps around. */
static void find_all_reversed(fj_parser *p, const char *doc, size_t len, const char *keys,
                              size_t stride, int n) {
  fj_value root, val;
  fj_object o;
  OK(fj_parser_parse(p, doc, len, &root));
  OK(fj_value_get_object(&root, &o));
  for (int i = n - 1; i >= 0; i--) {
    int64_t x;
    OK(fj_object_find(&o, keys + (size_t)i * stride, &val));
    OK(fj_value_get_int64(&val, &x));
    assert_int_equal(x, i);
  }
}

/* The longest probe in a field table (slots from a key's home slot to its
 * own), and in *filled the number of keys it holds. */
static uint32_t longest_probe(const fj__field_table *t, uint32_t *filled) {
  uint32_t worst = 0;
  *filled = 0;
  for (uint32_t i = 0; i <= t->mask; i++) {
    const fj__field_slot *slot = &t->slots[i];
    if (!slot->vpos) continue;
    ++*filled;
    uint32_t d = (i - fj__key_home(slot->id, slot->key_len, t->mask)) & t->mask;
    if (d > worst) worst = d;
  }
  return worst;
}

/* Keys that share their first and last eight bytes and their length (ids
 * and paths of fixed width): the table must still spread them, every key
 * within FJ__FIELDS_MAX_PROBE slots of its first (a hash of the first and
 * last words put all of them in one chain: a table of 40000 such keys took
 * seconds to build), and answer as the linear search does. */
static void keys_alike_at_both_ends(void **state) {
  (void)state;
  enum { N = 20000 };
  fj_parser *p;
  OK(fj_parser_new(&p, NULL));
  char *doc = malloc((size_t)N * 40 + 8);
  assert_non_null(doc);
  size_t len = 0;
  doc[len++] = '{';
  for (int i = 0; i < N; i++)
    len += (size_t)sprintf(doc + len, "%s\"AAAAAAAA%07dAAAAAAAA\":%d", i ? "," : "", i, i);
  doc[len++] = '}';
  fj_value root, val;
  fj_object o;
  OK(fj_parser_parse(p, doc, len, &root));
  OK(fj_value_get_object(&root, &o));
  char key[32];
  for (int k = 0; k < N; k++) { /* every key, in a scrambled order (7919 is prime) */
    int i = (int)(((long long)(k + N - 1) * 7919) % N);
    int64_t x;
    snprintf(key, sizeof key, "AAAAAAAA%07dAAAAAAAA", i);
    OK(fj_object_find(&o, key, &val));
    OK(fj_value_get_int64(&val, &x));
    assert_int_equal(x, i);
  }
  EXPECT(fj_object_find(&o, "AAAAAAAA0000000AAAAAAAB", &val), FJ_ERR_NO_SUCH_FIELD);
  const fj__field_table *t = &p->fields;
  assert_true(t->usable);
  uint32_t filled, worst = longest_probe(t, &filled);
  assert_int_equal(filled, N);
  assert_true(worst <= FJ__FIELDS_MAX_PROBE);
  free(doc);
  fj_parser_free(p);
}

/* Keys whose hashes all share a home slot (found by trying keys): past
 * FJ__FIELDS_MAX_PROBE of them the table is given up, and the linear search
 * answers every lookup as before. */
static void colliding_keys_give_up_the_table(void **state) {
  (void)state;
  enum { N = FJ__FIELDS_MAX_PROBE + 8 };
  static char keys[N][16];
  int found = 0;
  for (unsigned c = 0; found < N; c++) { /* 1 in 1024 keys has home slot 0 of 1024 */
    char k[16];
    snprintf(k, sizeof k, "k%u", c);
    if (fj__key_home(fj__key_id((const uint8_t *)k, strlen(k)), strlen(k), 1023u) == 0)
      strcpy(keys[found++], k);
  }
  static char doc[N * 24 + 8];
  size_t len = 0;
  doc[len++] = '{';
  for (int i = 0; i < N; i++)
    len += (size_t)sprintf(doc + len, "%s\"%s\":%d", i ? "," : "", keys[i], i);
  doc[len++] = '}';
  fj_parser *p;
  OK(fj_parser_new(&p, NULL));
  find_all_reversed(p, doc, len, keys[0], sizeof keys[0], N);
  assert_false(p->fields.usable); /* the table (slots <= 1024) would chain all N keys */
  fj_parser_free(p);
}

/* Fixed-width keys (ids, sensor names, zero-padded numbers) that differ only
 * in their last bytes spread over the table: every byte of a short key
 * reaches its home slot. The home slot once came from product bits that
 * bytes 5 to 8 of a key cannot reach, so 64 keys "item0000".."item0063"
 * shared one chain and 256 of them gave the table up (trial). */
static void fixed_width_keys_spread(void **state) {
  (void)state;
  static const char *const shapes[] = {"item%04d",  "key_%03d",  "%08d",   "sensor_%05d",
                                       "user_%07d", "x%011d",    "ab%02d", "id%06dz",
                                       "%05d",      "k%03d-%03d"};
  enum { N = 256 };
  fj_parser *p;
  OK(fj_parser_new(&p, NULL));
  static char doc[N * 48 + 8];
  char key[N][24];
  for (size_t s = 0; s < sizeof shapes / sizeof *shapes; s++) {
    size_t len = 0;
    doc[len++] = '{';
    for (int i = 0; i < N; i++) {
      snprintf(key[i], sizeof key[i], shapes[s], i, i / 7); /* the second only for k%03d-%03d */
      len += (size_t)sprintf(doc + len, "%s\"%s\":%d", i ? "," : "", key[i], i);
    }
    doc[len++] = '}';
    find_all_reversed(p, doc, len, key[0], sizeof key[0], N);
    const fj__field_table *t = &p->fields;
    if (!t->usable) fail_msg("%s: the table was given up", shapes[s]);
    uint32_t filled, worst = longest_probe(t, &filled);
    assert_int_equal(filled, N);
    /* 256 keys in 512 slots: 15 slots at most for these shapes (a chain
     * of all 256 before); 64 would give the table up */
    if (worst > 32) fail_msg("%s: a probe of %u slots", shapes[s], (unsigned)worst);
  }
  fj_parser_free(p);
}

/* A copy of an object iteration that another copy has stepped past is out
 * of date: every step on it fails with FJ_ERR_OUT_OF_ORDER (parser.h), also
 * when the object has a field table (a lookup once jumped through the
 * table from the stale copy and made the copy that stepped last the
 * refused one). Both spellings of the object: with a table (plain keys),
 * and without (an escaped key). */
static void stale_copy_refused_with_a_table(void **state) {
  (void)state;
  static const char *const docs[] = {
      "{\"a\":1,\"b\":2,\"c\":3,\"d\":4,\"e\":5,\"f\":6,\"g\":7,\"h\":8,\"i\":9,\"j\":10}",
      "{\"a\":1,\"b\":2,\"c\":3,\"d\":4,\"e\":5,\"\\u0066\":6,\"g\":7,\"h\":8,\"i\":9,"
      "\"j\":10}"};
  for (size_t d = 0; d < sizeof docs / sizeof *docs; d++) {
    fj_parser *p;
    OK(fj_parser_new(&p, NULL));
    fj_value root, v;
    fj_object o1, o2;
    int64_t x;
    OK(fj_parser_parse(p, docs[d], strlen(docs[d]), &root));
    OK(fj_value_get_object(&root, &o1));
    OK(fj_object_find(&o1, "j", &v));
    OK(fj_object_find(&o1, "a", &v)); /* wraps: the table is built (for docs[0]) */
    assert_int_equal(p->fields.usable, d == 0);
    o2 = o1;
    OK(fj_object_find(&o1, "c", &v)); /* o1 steps: o2 is out of date */
    EXPECT(fj_object_find(&o2, "e", &v), FJ_ERR_OUT_OF_ORDER);
    EXPECT(fj_object_next(&o2, NULL, &v), FJ_ERR_OUT_OF_ORDER);
    OK(fj_object_next(&o1, NULL, &v)); /* o1 goes on where it was: "d" */
    OK(fj_value_get_int64(&v, &x));
    assert_int_equal(x, 4);
    OK(fj_object_find(&o1, "b", &v)); /* through the table again */
    OK(fj_value_get_int64(&v, &x));
    assert_int_equal(x, 2);
    fj_parser_free(p);
  }
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(lookups_follow_the_model),
      cmocka_unit_test(reverse_order_in_a_big_object),
      cmocka_unit_test(fixed_width_keys_spread),
      cmocka_unit_test(keys_alike_at_both_ends),
      cmocka_unit_test(colliding_keys_give_up_the_table),
      cmocka_unit_test(stale_copy_refused_with_a_table),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
