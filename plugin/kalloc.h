/*
 * kalloc.h - what the plugin's files share: the options, the allocator
 * table's row, and the one structure that describes an allocation site.
 *
 * Data flows one way: a GIMPLE call is matched against the allocator
 * table (allocators.c), its size argument is parsed (size.c), the type
 * its result is stored as is inferred (pointee.c), and site.c puts that
 * together into a struct alloc_site, and the counter's plan (store, check
 * or leave, and why) completes it.  The warnings (diagnose.c), suggest,
 * the rewrites (rewrite.c) and the report (report.c) read that site as
 * const; what they did goes into the site's struct site_outcome.
 */
#ifndef KALLOC_H
#define KALLOC_H

#include "gcc-compat.h"

/* kalloc's version, from the Makefile.  */
#ifndef KALLOC_VERSION
#define KALLOC_VERSION "unknown"
#endif

/* ---- options (kalloc.c) ---------------------------------------------- */

enum kalloc_mode
{
  KALLOC_MODE_HARDEN,		/* warn and rewrite (the default) */
  KALLOC_MODE_CHECK		/* warn only; code is left as it is */
};

/* Warning kinds, each of which can be switched off on its own. */
enum kalloc_warning
{
  KW_OBJECT = 1 << 0,		/* single object smaller than its type */
  KW_ARRAY = 1 << 1,		/* element size unlike the pointee's */
  KW_FLEX = 1 << 2,		/* flexible-array header or element too small */
  KW_TYPE = 1 << 3,		/* sizeof names another type of the same size */
  KW_OFFSET = 1 << 4		/* pointer arithmetic scaled by a sizeof */
};
#define KW_ALL (KW_OBJECT | KW_ARRAY | KW_FLEX | KW_TYPE | KW_OFFSET)

struct kalloc_options
{
  enum kalloc_mode mode;
  unsigned warnings;		/* enabled enum kalloc_warning bits */
  bool counter_store;		/* set the counted_by counter */
  bool counter_check;		/* fail counts the counter cannot hold */
  bool counted_by;		/* provide the counted_by attribute */
  bool libc;			/* the C library's allocators are sites */
  bool wrappers;		/* learn allocator wrappers from bodies */
  bool dump;			/* write the pass's dump file */
  bool suggest;			/* fix-its to the typed allocators */
  bool suggest_keep_gfp;	/* ... keeping GFP_KERNEL */
  const char *report;		/* per-site JSON lines file, or NULL */
  const char *suggest_patch;	/* suggest's patch file, or NULL */
  const char *suggest_root;	/* its names are relative to this */
  bool checking;		/* a broken invariant is an internal error */
  bool keep_warnings;		/* kalloc's warnings stay warnings (-Werror) */
};

/* An invariant kalloc relies on.  False when it does not hold: the
   caller then leaves the site as the program wrote it.  With
   -fplugin-arg-kalloc-checking (make check passes it) a broken one is an
   internal compiler error instead, so that a surprise fails a test
   rather than going quiet.  */
#define kalloc_invariant(EXPR) \
  ((EXPR) ? true : kalloc_invariant_failed (#EXPR, __FILE__, __LINE__))
bool kalloc_invariant_failed (const char *expr, const char *file, int line);

extern struct kalloc_options kalloc_opts;

/* options.c: one -fplugin-arg-kalloc-KEY[=VALUE] into kalloc_opts (false,
   with an error, when bad); the help text; what the arguments asked to
   do besides setting options.  */
bool options_parse (const struct plugin_argument *arg, const char *plugin_path);
char *options_help_text (void);
extern bool options_disabled, options_help, options_list_allocators;

/* One word an option's value may be (kalloc.c's option table); the report
   names bits with such words too.  */
struct option_word
{
  const char *word;
  unsigned value;		/* what it stands for: a mode, KW_ bits */
  const char *help;
};

/* The no-warn= kinds, ending with a NULL word; "all" is every bit.  */
extern const struct option_word warning_kinds[];

/* What an option's value is.  */
enum option_kind
{
  OPTION_FLAG,			/* no value */
  OPTION_WORD,			/* one of WORDS */
  OPTION_WORD_LIST,		/* a comma-separated list of WORDS */
  OPTION_TEXT			/* free text, checked by SET_TEXT */
};

/* One -fplugin-arg-kalloc-NAME[=VALUE].  */
struct option_row
{
  const char *name;
  enum option_kind kind;
  const char *value;		/* how help names a TEXT/LIST value */
  const char *help;
  const struct option_word *words;	/* WORD, WORD_LIST: what is taken */
  bool *flag;			/* FLAG: set to FLAG_VALUE */
  bool flag_value;
  bool (*set_word) (unsigned value);	/* WORD, WORD_LIST: apply one */
  bool (*set_text) (const char *text);	/* TEXT: apply, false if bad */
  const char *expected;		/* TEXT: what a bad value should be */
};

/* ---- the allocator table (allocators.c) ------------------------------- */

/* Linux 6.10+'s allocation functions: kmalloc () is a macro over
   kmalloc_noprof ().  */
#define NOPROF_SUFFIX "_noprof"

/* One allocator: which argument plays which role (-1: none).  An
   allocator with a COUNT_ARG is an array allocator, and its SIZE_ARG is
   then the element size.  */
struct allocator
{
  const char *name;
  signed char size_arg;
  signed char count_arg;
  signed char gfp_arg;
  const char *family;		/* its typed form's stem: kcalloc is
				   kzalloc_objs (), kmalloc kmalloc_obj ()
				   or kmalloc_flex (); NULL: none */
  bool resize;			/* may return the block it is given
				   (realloc ()): its counter is not set */
};

const struct allocator *alloc_find (tree fndecl);
const struct allocator *alloc_find_name (const char *name);
bool alloc_add_user (const char *spec, const char *origin);
bool alloc_add_option (const char *spec);
void alloc_add_wrapper (struct allocator *row);
void alloc_roles_text (const struct allocator *row, char *buf, size_t size);
void alloc_print_table (FILE *out);
bool alloc_may_zero (const struct allocator *row, gcall *call);
bool alloc_is_library (const struct allocator *row);

/* ---- allocator wrappers (wrappers.c) ---------------------------------- */

bool wrapper_learn (function *fun);
bool wrappers_read_file (const char *file);

/* ---- size expressions (size.c) ---------------------------------------- */

enum size_op
{
  SIZE_LEAF,			/* a value kalloc does not look into */
  SIZE_CONST,			/* an integer constant */
  SIZE_MUL,			/* a * b, wraps on overflow */
  SIZE_ADD,			/* a + b, wraps on overflow */
  SIZE_SUB,			/* a - b, wraps below zero */
  SIZE_SAT_MUL,			/* size_mul () and friends: saturating */
  SIZE_SAT_ADD			/* size_add () and friends: saturating */
};

struct size_node
{
  enum size_op op;
  tree value;			/* what holds the node's value, or NULL */
  /* A leaf or constant that may stand for a negative number: the value
     as a signed integer (what a sign-extending conversion converts, or
     the constant GCC wrote wrapped: x - 4 is x + 0xff..fc), or a value
     of the size type to read as signed (c ? -8 : 8), or NULL.  */
  tree signed_value;
  int a, b;			/* operand nodes, for the binary ops */
};

#define SIZE_EXPR_MAX 24

struct size_expr
{
  tree type;			/* the allocator's size type */
  int count;			/* nodes used */
  int root;
  bool unknown_sign;		/* a term may be negative after arithmetic
				   that may have wrapped: not understood */
  struct size_node node[SIZE_EXPR_MAX];
};

/* A size as CONSTANT + COEF[0] * TERM[0] + ... (size_linear ()).  */
struct size_linear
{
  unsigned HOST_WIDE_INT constant;
  int nterms;
  int term[SIZE_EXPR_MAX];	/* nodes */
  unsigned HOST_WIDE_INT coef[SIZE_EXPR_MAX];
};

void size_parse (tree arg, struct size_expr *expr);
bool size_linear (const struct size_expr *expr, int n,
		  struct size_linear *lin);
bool size_is_const (const struct size_expr *expr, int n,
		    unsigned HOST_WIDE_INT *value);
bool size_split_product (const struct size_expr *expr, int n,
			 unsigned HOST_WIDE_INT *factor, int *other);
bool size_product (const struct size_expr *expr, int n,
		   unsigned HOST_WIDE_INT *constant, int *other);
bool size_split_sum (const struct size_expr *expr, int n,
		     unsigned HOST_WIDE_INT *addend, int *other);
bool size_needs_saturation (const struct size_expr *expr);
bool size_may_be_negative (const struct size_expr *expr, int n);
bool size_wraps (const struct size_expr *expr);

/* ---- flexible array members (flex.c) ---------------------------------- */

#define FLEX_PATH_MAX 8

struct flex_member
{
  tree fam;			/* FIELD_DECL of the trailing array */
  unsigned HOST_WIDE_INT offset; /* byte offset of FAM in the record */
  unsigned HOST_WIDE_INT elem_size;
  /* The counted_by counter, as a path of FIELD_DECLs from the record
     (more than one where anonymous members nest it).  */
  tree counter[FLEX_PATH_MAX];
  int counter_depth;
};

bool flex_find (tree record, unsigned HOST_WIDE_INT elem_size,
		struct flex_member *out);
bool flex_trailing_array (tree record, unsigned HOST_WIDE_INT *offset);
bool flex_array_member_at (tree record, unsigned HOST_WIDE_INT offset,
			   unsigned HOST_WIDE_INT elem);
bool flex_nested_array (tree type, unsigned HOST_WIDE_INT *offset,
			unsigned HOST_WIDE_INT *elem, int depth);
tree flex_counter_type (const struct flex_member *flex);
bool flex_counter_for (tree record, tree fam, struct flex_member *out);
bool flex_counted_member (tree record, struct flex_member *out);
bool flex_array_type_p (tree type);
tree flex_counter_name (tree fam);
bool flex_counter_type_ok (tree type);

/* ---- the counted_by attribute where GCC lacks it (counted-by.c) ------- */

bool counted_by_provided (void);
void counted_by_register (void);
void counted_by_init (void);
void counted_by_check_type (tree type);

/* ---- passes (pass.c) ----------------------------------------------------- */

/* One of kalloc's GIMPLE passes: it runs when GCC has seen no error and
   GATE (when not NULL) says so.  */
struct kalloc_pass
{
  const char *name;
  bool (*gate) (function *fun);
  unsigned int (*execute) (function *fun);
  unsigned int todo_finish;
};

void pass_register (const char *plugin, const struct kalloc_pass *desc,
		    const char *reference, enum pass_positioning_ops pos);

/* ---- the counter as GIMPLE (counter.c) -------------------------------- */

tree counter_ref (tree object, const struct flex_member *flex);
tree counter_count (gimple_stmt_iterator *gsi, tree object,
		    const struct flex_member *flex, tree vuse, location_t loc);
tree counter_limit (tree counter_type, tree size_type);
struct alloc_site;
bool counter_store_after (const struct alloc_site *site, tree count);

/* ---- may kalloc set the counter? (counter-fate.c) --------------------- */

/* Why kalloc leaves a site's counter alone (neither stored nor range
   checked), or COUNTER_SET_HERE when it may set it.  */
enum counter_fate
{
  COUNTER_SET_HERE,		/* nothing can see kalloc's store */
  COUNTER_FILLED_FROM_ZERO,	/* the program's first store is 0 */
  COUNTER_READ_BEFORE_SET,	/* the program reads the zeroed (or
				   written) counter before storing it */
  COUNTER_ESCAPES_UNSET,	/* code kalloc does not see can reach the
				   zeroed counter before the store */
  COUNTER_UNDECIDED		/* the analysis could not tell */
};
struct alloc_site;
enum counter_fate counter_fate_of (const struct alloc_site *site,
				   bool zeroed);
const char *counter_fate_name (enum counter_fate fate);
void counter_fate_reset_function (void);

/* ---- object sizes for counted_by (object-size.c) --------------------- */

extern const struct kalloc_pass object_size_pass;	/* NULL name: none */

/* ---- -fsanitize=bounds for counted_by (bounds.c) ---------------------- */

bool bounds_instrument_function (function *fun);

/* ---- pointer arithmetic scaled twice (scaled-offset.c) ----------------- */

void scaled_offset_check_function (function *fun,
				   const struct alloc_site *sites, int nsites);

/* ---- members of records (record.c) ----------------------------------- */

bool record_anonymous_member_p (tree field);
int record_member_path (tree record, tree name, tree *path, int max);
tree record_member (tree record, tree name);

/* ---- silencing (silence.c) -------------------------------------------- */

void silence_register_attributes (void);
void silence_register_pragmas (void);
bool silence_site (location_t loc, tree fndecl);

/* ---- pointee inference (pointee.c) ------------------------------------- */

bool pointee_is_typed (tree type);
tree pointee_infer (gcall *call, tree *dest);
tree pointee_infer_declared (gcall *call);

/* ---- the site (site.c) ------------------------------------------------- */

enum site_kind
{
  SITE_OPAQUE,			/* size not understood */
  SITE_OBJECT,			/* one object of a constant size */
  SITE_ARRAY,			/* COUNT elements of ELEM_SIZE bytes */
  SITE_FLEX			/* a header plus COUNT FAM elements */
};

/* Rewrites applied to a site. */
enum site_rewrite
{
  RW_SATURATE = 1 << 0,		/* size arithmetic made overflow-checked */
  RW_COUNTER_CHECK = 1 << 1,	/* counts the counter cannot hold fail */
  RW_COUNTER_STORE = 1 << 2	/* counter set after allocation */
};

struct alloc_site
{
  gcall *call;
  const struct allocator *alloc;
  const char *name;		/* the allocator as the user spelled it */
  bool in_macro;		/* the call is written in a macro body */
  const char *outer_macro;	/* the outermost macro it is written in */
  bool typed;			/* written with Linux 7.x's kmalloc_obj ()
				   and friends: left as it is */
  location_t loc;		/* the user's line (macro expansion point) */
  tree pointee;			/* type the result is stored as, or NULL */
  tree dest;			/* where it is stored (for messages) or NULL */
  enum site_kind kind;
  unsigned HOST_WIDE_INT size;	/* SITE_OBJECT: the constant size */
  unsigned HOST_WIDE_INT elem_size; /* SITE_ARRAY and SITE_FLEX */
  unsigned HOST_WIDE_INT base_size; /* SITE_FLEX: the header */
  bool swapped;			/* array allocator with count and size swapped */
  tree count;			/* element count, when known */
  int count_node;		/* its node in EXPR, or -1 */
  struct size_expr expr;	/* the parsed size argument */
  bool has_flex;
  struct flex_member flex;
  enum counter_fate counter_left;	/* why the counter is left alone:
				   COUNTER_SET_HERE (0) when it is not
				   (rewrite_plan_site ()) */
  unsigned plan;		/* enum site_rewrite bits rewrite_site ()
				   may apply (rewrite_plan_site ()) */
};

/* What was done at a site: the steps after the analysis read the site
   as const and say here what they did.  */
struct site_outcome
{
  unsigned warned;		/* enum kalloc_warning bits */
  unsigned rewrites;		/* enum site_rewrite bits */
  bool counter_store_branch;	/* the counter store needed a branch (a
				   bit-field or packed counter) */
};

bool site_analyze (gcall *call, struct alloc_site *site);
bool site_spelled_candidate (gcall *call);
bool site_spelled (gcall *call, struct alloc_site *site);

/* Locations seen in the current function: the alloc_hooks () macro can
   expand one call into two, and one line deserves one message.  */
struct location_set
{
  location_t *locs;
  int count, alloc;
};
bool site_location_set_add (struct location_set *set, location_t loc);
const char *site_kind_name (enum site_kind kind);
extern const struct option_word site_rewrite_names[];

/* ---- the call's source text (source.c) --------------------------------- */

#define SOURCE_MAX_ARGS 8
#define SOURCE_MAX_CALL 4096	/* longest call text scanned */
#define SOURCE_TOKEN_MAX 32	/* tokens of one sizeof operand */
#define SOURCE_TOKEN_LEN 64

struct span
{
  long from, to;		/* [from, to) in the source */
};

/* One call as written: its name, and its arguments up to CLOSE.  */
struct source_call
{
  struct span name;
  long close;			/* the ')' that ends it */
  int nargs;
  struct span args[SOURCE_MAX_ARGS];
};

/* A growing text, NUL-terminated: the report's records, macro
   expansions.  */
struct text_buf
{
  char *s;
  size_t len, room;
};
void source_text_buf_add (struct text_buf *b, const char *text, size_t len);

extern char *source_text;	/* the file of the last call found */
extern long source_len;

bool source_is_preprocessed (void);
void source_keep_stdin (void);
long source_location_offset (location_t loc);
bool source_call_find (location_t loc, const char *name,
		       struct source_call *call);
bool source_call_read (location_t loc, const char *name,
		       struct source_call *call);
location_t source_location_at (location_t loc, long offset);
int source_split_args (long open, long *close, struct span *args);
void source_trim (struct span *s);
bool source_span_is (const struct span *s, const char *word);
void source_strip_parens (struct span *s);
long source_after_word (const struct span *s, const char *word);
bool source_span_has_word (const struct span *s, const char *word);
bool source_sizeof_operand (struct span s, struct span *operand);
bool source_helper_call (struct span s, const char *name, struct span *args,
		  int nargs);
void source_fold_space (const struct span *s, char *buf, size_t size);
bool source_same_line (long from, long to);
int source_split_top (struct span s, char op, struct span *parts, int max);

/* The tokens of a sizeof operand: identifiers, numbers, * & . [ ] ( ) ->.  */
struct source_tokens
{
  char text[SOURCE_TOKEN_MAX][SOURCE_TOKEN_LEN];
  int count, next;
};
/* The size argument's text (source-size.c).  */
bool source_size_one_term (struct span s, char op, struct span *operand);
bool source_size_sizeof (struct span s, enum site_kind kind,
			 struct span *operand);
bool source_size_typed_element (struct span s, int depth, struct span *named);
bool source_size_literal_factor (struct span s);
bool source_tokenize (const struct span *s, struct source_tokens *t);
const char *source_token_peek (const struct source_tokens *t);
bool source_token_accept (struct source_tokens *t, const char *tok);
bool source_struct_size_parts (struct span s, struct span *args,
			       bool *by_type);
bool source_flex_array_size_call (struct span s);

/* ---- the type a sizeof names (sizeof-type.c) ---------------------------- */

struct sizeof_type
{
  tree type;			/* the type named */
  struct span operand;		/* its text in source_text */
  bool pointer;			/* OPERAND is struct_size ()'s pointer */
};

extern const struct ggc_root_tab sizeof_type_roots[];
void sizeof_type_note_decl (tree decl);
void sizeof_type_note_type (tree type);
bool sizeof_type_of_site (const struct alloc_site *site,
			  struct sizeof_type *out);
bool sizeof_element_typed (const struct alloc_site *site);
bool sizeof_size_bare (const struct alloc_site *site);
tree sizeof_operand_type (gimple *stmt, const struct span *operand);

/* What is wrong with the type a sizeof names (sizeof_type_mismatch ()). */
enum type_mismatch
{
  TM_NONE,
  TM_OTHER_TYPE,		/* another structure of the same size */
  TM_OWN_TYPE,			/* the destination's own type: T ** for T * */
  TM_OTHER_POINTER,		/* a pointer to another object type */
  TM_POINTER_FOR_OBJECT,	/* sizeof (u64 *) for u64 elements */
  TM_OBJECT_FOR_POINTER,	/* sizeof (u64) for pointer elements */
  TM_TARGET_FOR_POINTER		/* sizeof (struct row) for row * */
};
enum type_mismatch sizeof_type_mismatch (const struct alloc_site *site,
			   const struct sizeof_type *st);

/* ---- diagnostics, rewrites, report ------------------------------------- */

unsigned diagnose_site (const struct alloc_site *site);
bool kalloc_warnings_begin (void);
void kalloc_warnings_end (bool werror);
void diagnose_reset_function (void);
extern const struct ggc_root_tab counter_roots[];
void rewrite_plan_site (struct alloc_site *site);
bool rewrite_site (const struct alloc_site *site, struct site_outcome *done);
void report_site (const struct alloc_site *site,
		  const struct site_outcome *done);
void suggest_site (const struct alloc_site *site, unsigned warned);
void suggest_reset_function (void);
void suggest_patch_add (rich_location *richloc);
void suggest_patch_finish (void);
void suggest_finish (void);
void report_wrapper (const struct allocator *row, tree fndecl,
		     const struct allocator *inner);
void report_finish (void);

#endif /* KALLOC_H */
