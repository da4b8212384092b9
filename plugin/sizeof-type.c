/*
 * sizeof-type.c - the type an allocation's sizeof names.
 *
 * GIMPLE has only the folded size: kmalloc (sizeof (struct foo_ops))
 * is kmalloc (24).  The type comes from the call's source text (source.c):
 * the sizeof operand is read as a type name (struct foo, foo_t,
 * const struct foo *, unsigned long) or as an expression (*p, *h->items,
 * q[0]), and resolved with what GCC still has when kalloc's pass runs:
 * the call's lexical blocks and the function's parameters for local
 * names, and tables of file-scope typedefs, variables and structure tags
 * that kalloc fills while the front end parses (PLUGIN_FINISH_DECL,
 * PLUGIN_FINISH_TYPE), because the C front end forgets its scopes
 * before the passes run.  Macros in the call's arguments are read
 * expanded (source_call_read ()).  Anything else (casts, calls, typeof)
 * is not resolved, and then nothing is said.
 */
#include "kalloc.h"

/* ---- names seen while parsing ------------------------------------------ */

/* Identifier -> declaration or type; AMBIGUOUS when two differ.  A
   hash table of bindings, since a kernel file's headers declare
   thousands of names.  */
struct binding
{
  tree name, scope, value;	/* SCOPE: the function of a local, or
				   NULL */
};

static htab_t file_decls;	/* file-scope typedefs, variables */
static htab_t tags;		/* struct and union tags */
/* A name bound to two different things.  Read at each use: the front
   end makes error_mark_node after the plugin is loaded.  */
#define ambiguous error_mark_node

/* What the front end finished, in order: bound into the tables above
   only when an allocation's sizeof first asks (bind_pending ()), so a
   unit that never asks pays one append per declaration.  A TREE_VEC
   grown by doubling, and a GC root: a local that optimisation drops
   would otherwise be collected.  */
static tree pending;
static int npending, nbound;

const struct ggc_root_tab sizeof_type_roots[] = {
  { &pending, 1, sizeof (pending), &gt_ggc_mx_tree_node,
    &gt_pch_nx_tree_node },
  LAST_GGC_ROOT_TAB
};

static void
pending_add (tree t)
{
  if (!pending || npending == TREE_VEC_LENGTH (pending))
    {
      tree grown = make_tree_vec (pending ? 2 * TREE_VEC_LENGTH (pending)
				  : 1024);
      for (int i = 0; i < npending; i++)
	TREE_VEC_ELT (grown, i) = TREE_VEC_ELT (pending, i);
      pending = grown;
    }
  TREE_VEC_ELT (pending, npending++) = t;
}

static hashval_t
binding_hash (const void *entry)
{
  /* Called for every declaration bound: two pointers mixed by a
     multiplication, no call.  */
  const struct binding *b = (const struct binding *) entry;
  uintptr_t h = ((uintptr_t) b->name >> 3) * 0x9e3779b1u
		^ ((uintptr_t) b->scope >> 3);
  return (hashval_t) (h ^ (h >> 15));
}

static int
binding_eq (const void *a, const void *b)
{
  const struct binding *x = (const struct binding *) a;
  const struct binding *y = (const struct binding *) b;
  return x->name == y->name && x->scope == y->scope;
}

/* Bind NAME in SCOPE to VALUE; a second, different value makes it
   ambiguous, but where LENIENT, for a variable declared again (an extern
   variable declared twice is one variable).  */
static void
name_table_add_scoped (htab_t *table, tree name, tree scope, tree value,
		       bool lenient)
{
  if (!*table)
    *table = htab_create (4096, binding_hash, binding_eq, free);
  struct binding key = { name, scope, value };
  void **slot = htab_find_slot (*table, &key, INSERT);
  struct binding *b = (struct binding *) *slot;
  /* The front end reports a tag at every use (struct foo *p): most
     calls bind what is bound already, and cost nothing more.  */
  if (b && (b->value == value || b->value == ambiguous))
    return;
  if (!b)
    {
      b = XNEW (struct binding);
      *b = key;
      *slot = b;
    }
  else if (lenient && TREE_CODE (value) == VAR_DECL
	   && TREE_CODE (b->value) == VAR_DECL)
    b->value = value;
  else
    b->value = ambiguous;
}

static void
name_table_add (htab_t *table, tree name, tree value)
{
  name_table_add_scoped (table, name, NULL_TREE, value, true);
}

static tree
name_table_find_scoped (htab_t table, tree name, tree scope)
{
  struct binding key = { name, scope, NULL_TREE };
  struct binding *b = table ? (struct binding *) htab_find (table, &key)
			    : NULL;
  return b && b->value != ambiguous ? b->value : NULL_TREE;
}

static tree
name_table_find (htab_t table, tree name)
{
  return name_table_find_scoped (table, name, NULL_TREE);
}

/* The local variables and typedefs of each function, by name and
   function, for when its passes run: optimisation drops a variable that
   only a sizeof uses from its block.  Functions are parsed whole before
   the next starts, but their passes run later, so every function's
   locals are kept until the TU ends.  */
static htab_t locals;

/* PLUGIN_FINISH_DECL: remember typedefs and variables.  */
void
sizeof_type_note_decl (tree decl)
{
  if (!decl || !DECL_P (decl) || !DECL_NAME (decl)
      || (TREE_CODE (decl) != TYPE_DECL && TREE_CODE (decl) != VAR_DECL))
    return;
  if (DECL_FILE_SCOPE_P (decl)
      || (DECL_CONTEXT (decl)
	  && TREE_CODE (DECL_CONTEXT (decl)) == FUNCTION_DECL))
    pending_add (decl);
}

/* PLUGIN_FINISH_TYPE: remember structure and union tags.  */
void
sizeof_type_note_type (tree type)
{
  if (!type || !RECORD_OR_UNION_TYPE_P (type) || !TYPE_NAME (type)
      || TREE_CODE (TYPE_NAME (type)) != IDENTIFIER_NODE)
    return;
  pending_add (TYPE_MAIN_VARIANT (type));
}

/* Bind what was finished since the last time, in the order the front
   end finished it.  */
static void
bind_pending (void)
{
  for (; nbound < npending; nbound++)
    {
      tree t = TREE_VEC_ELT (pending, nbound);
      if (TYPE_P (t))
	name_table_add (&tags, TYPE_NAME (t), t);
      else if (DECL_FILE_SCOPE_P (t))
	name_table_add (&file_decls, DECL_NAME (t), t);
      else
	name_table_add_scoped (&locals, DECL_NAME (t), DECL_CONTEXT (t), t,
			       false);
    }
}

/* The one local NAME of the current function, when it has one only.  */
static tree
find_local (tree name)
{
  return name_table_find_scoped (locals, name, current_function_decl);
}

/* ---- names in scope ------------------------------------------------------ */

/* The declaration NAME means at STMT: the stmt's blocks outwards, the
   function's parameters, then file scope.  */
static tree
lookup_decl (gimple *stmt, const char *name)
{
  tree id = maybe_get_identifier (name);
  if (!id)
    return NULL_TREE;
  tree block = gimple_block (stmt);
  if (!block)
    block = DECL_INITIAL (current_function_decl);
  for (; block && TREE_CODE (block) == BLOCK; block = BLOCK_SUPERCONTEXT (block))
    for (tree decl = BLOCK_VARS (block); decl; decl = DECL_CHAIN (decl))
      if (DECL_NAME (decl) == id)
	return decl;
  for (tree parm = DECL_ARGUMENTS (current_function_decl); parm;
       parm = DECL_CHAIN (parm))
    if (DECL_NAME (parm) == id)
      return parm;
  tree local = find_local (id);
  return local ? local : name_table_find (file_decls, id);
}

/* ---- type names ----------------------------------------------------------- */

static const char *const qualifiers[] = {
  "const", "volatile", "restrict", "__restrict", "__restrict__",
  "__const", "__volatile__"
};

static bool
is_qualifier (const char *tok)
{
  for (size_t i = 0; i < ARRAY_SIZE (qualifiers); i++)
    if (!strcmp (tok, qualifiers[i]))
      return true;
  return false;
}

/* The TYPE_QUAL_ bit of qualifier TOK.  */
static int
qualifier_bit (const char *tok)
{
  if (strstr (tok, "const"))
    return TYPE_QUAL_CONST;
  if (strstr (tok, "volatile"))
    return TYPE_QUAL_VOLATILE;
  return TYPE_QUAL_RESTRICT;
}

/* TYPE with QUALS, restrict only where C allows it (pointers).  */
static tree
qualified (tree type, int quals)
{
  if (!POINTER_TYPE_P (type))
    quals &= ~TYPE_QUAL_RESTRICT;
  return build_qualified_type (type, quals);
}

/* The basic type the keywords KW (char, short, int, long, signed,
   unsigned, counted) name, or NULL.  */
struct basic_words
{
  int chars, shorts, ints, longs, signeds, unsigneds, voids, bools, floats,
      doubles;
};

static bool
note_basic_word (struct basic_words *w, const char *tok)
{
  int *slot = !strcmp (tok, "char") ? &w->chars
	      : !strcmp (tok, "short") ? &w->shorts
	      : !strcmp (tok, "int") ? &w->ints
	      : !strcmp (tok, "long") ? &w->longs
	      : !strcmp (tok, "signed") || !strcmp (tok, "__signed__") ? &w->signeds
	      : !strcmp (tok, "unsigned") ? &w->unsigneds
	      : !strcmp (tok, "void") ? &w->voids
	      : !strcmp (tok, "_Bool") ? &w->bools
	      : !strcmp (tok, "float") ? &w->floats
	      : !strcmp (tok, "double") ? &w->doubles : NULL;
  if (!slot)
    return false;
  ++*slot;
  return true;
}

static tree
basic_type (const struct basic_words *w)
{
  bool u = w->unsigneds;
  if (w->voids)
    return void_type_node;
  if (w->bools)
    return boolean_type_node;
  if (w->floats)
    return float_type_node;
  if (w->doubles)
    return w->longs ? long_double_type_node : double_type_node;
  if (w->chars)
    return u ? unsigned_char_type_node
	     : w->signeds ? signed_char_type_node : char_type_node;
  if (w->shorts)
    return u ? short_unsigned_type_node : short_integer_type_node;
  if (w->longs >= 2)
    return u ? long_long_unsigned_type_node : long_long_integer_type_node;
  if (w->longs)
    return u ? long_unsigned_type_node : long_integer_type_node;
  if (w->ints || w->signeds || w->unsigneds)
    return u ? unsigned_type_node : integer_type_node;
  return NULL_TREE;
}

/* The qualifiers at T's position, as qualifier_bit ()s; T moves past
   them.  */
static int
take_qualifiers (struct source_tokens *t)
{
  int quals = 0;
  for (; t->next < t->count; t->next++)
    {
      const char *tok = source_token_peek (t);
      if (!is_qualifier (tok))
	break;
      quals |= qualifier_bit (tok);
    }
  return quals;
}

/* A type name: qualifiers, then struct/union TAG, basic keywords or a
   typedef name, then '*'s.  NULL when T is not one (or not resolved).  */
static tree
parse_type_name (gimple *stmt, struct source_tokens *t)
{
  struct basic_words words;
  memset (&words, 0, sizeof words);
  tree type = NULL_TREE;
  bool basic = false;
  int quals = 0;
  for (; t->next < t->count; t->next++)
    {
      const char *tok = source_token_peek (t);
      if (is_qualifier (tok))
	{
	  quals |= qualifier_bit (tok);
	  continue;
	}
      if (note_basic_word (&words, tok))
	{
	  basic = true;
	  continue;
	}
      break;
    }
  const char *tok = source_token_peek (t);
  if (basic)
    type = basic_type (&words);
  else if (!strcmp (tok, "struct") || !strcmp (tok, "union"))
    {
      t->next++;
      tree id = maybe_get_identifier (source_token_peek (t));
      type = id ? name_table_find (tags, id) : NULL_TREE;
      t->next++;
    }
  else
    {
      tree decl = ISIDST (tok[0]) ? lookup_decl (stmt, tok) : NULL_TREE;
      if (!decl || TREE_CODE (decl) != TYPE_DECL)
	return NULL_TREE;
      type = TREE_TYPE (decl);
      t->next++;
    }
  quals |= take_qualifiers (t);
  while (type && source_token_accept (t, "*"))
    {
      type = build_pointer_type (qualified (type, quals));
      quals = take_qualifiers (t);
    }
  if (!type || t->next != t->count)
    return NULL_TREE;
  return qualified (type, quals);
}

/* ---- expressions ------------------------------------------------------------ */

/* What *X or X[i] is for X of TYPE.  */
static tree
element_of (tree type)
{
  if (type && (POINTER_TYPE_P (type) || TREE_CODE (type) == ARRAY_TYPE))
    return TREE_TYPE (type);
  return NULL_TREE;
}

static tree parse_unary (gimple *stmt, struct source_tokens *t);

/* NAME, ( UNARY ), then -> FIELD, . FIELD and [ ... ].  */
static tree
parse_postfix (gimple *stmt, struct source_tokens *t)
{
  tree type;
  if (source_token_accept (t, "("))
    {
      type = parse_unary (stmt, t);
      if (!source_token_accept (t, ")"))
	return NULL_TREE;
    }
  else
    {
      if (!ISIDST (source_token_peek (t)[0]))
	return NULL_TREE;
      tree decl = lookup_decl (stmt, source_token_peek (t));
      if (!decl || (TREE_CODE (decl) != VAR_DECL
		    && TREE_CODE (decl) != PARM_DECL))
	return NULL_TREE;
      type = TREE_TYPE (decl);
      t->next++;
    }
  while (type)
    {
      bool arrow = source_token_accept (t, "->");
      if (arrow || source_token_accept (t, "."))
	{
	  tree record = arrow ? element_of (type) : type;
	  tree id = maybe_get_identifier (source_token_peek (t));
	  tree field = id ? record_member (record, id) : NULL_TREE;
	  type = field ? TREE_TYPE (field) : NULL_TREE;
	  t->next++;
	}
      else if (source_token_accept (t, "["))
	{
	  /* The index: any tokens up to the matching ']'.  */
	  int depth = 1;
	  while (t->next < t->count && depth)
	    {
	      const char *tok = source_token_peek (t);
	      depth += !strcmp (tok, "[") - !strcmp (tok, "]");
	      t->next++;
	    }
	  type = depth ? NULL_TREE : element_of (type);
	}
      else
	break;
    }
  return type;
}

static tree
parse_unary (gimple *stmt, struct source_tokens *t)
{
  if (source_token_accept (t, "*"))
    return element_of (parse_unary (stmt, t));
  if (source_token_accept (t, "&"))
    {
      tree type = parse_unary (stmt, t);
      return type ? build_pointer_type (type) : NULL_TREE;
    }
  return parse_postfix (stmt, t);
}

/* The type OPERAND (the text of a sizeof operand, or of struct_size ()'s
   pointer when DEREF) names, or NULL.  */
static tree
resolve (gimple *stmt, const struct span *operand, bool deref)
{
  struct source_tokens t;
  if (!source_tokenize (operand, &t))
    return NULL_TREE;
  bind_pending ();
  tree type = deref ? NULL_TREE : parse_type_name (stmt, &t);
  if (!type)
    {
      t.next = 0;
      type = parse_unary (stmt, &t);
      if (t.next != t.count)
	return NULL_TREE;
      if (deref)
	type = element_of (type);
    }
  if (!type || type == error_mark_node || !COMPLETE_TYPE_P (type))
    return NULL_TREE;
  return type;
}

/* The type the sizeof operand OPERAND names in STMT's scope, or NULL.  */
tree
sizeof_operand_type (gimple *stmt, const struct span *operand)
{
  return resolve (stmt, operand, false);
}

/* ---- the site ---------------------------------------------------------------- */

/* The text of SITE's call into *CALL, and the allocator row it names
   into *A; false when the call is written in a macro body, its text
   cannot be read, or it lacks the row's size or count argument.  */
static bool
site_call_text (const struct alloc_site *site, const struct allocator **a,
		struct source_call *call)
{
  *a = site->name ? alloc_find_name (site->name) : NULL;
  return *a && !site->in_macro
	 && source_call_read (site->loc, site->name, call)
	 && call->nargs > (*a)->size_arg && call->nargs > (*a)->count_arg;
}

/* Fill OUT with the type SITE's sizeof names (its element's for arrays,
   its header's for flexible arrays) and where it is written; false when
   the text does not say it plainly.  */
bool
sizeof_type_of_site (const struct alloc_site *site, struct sizeof_type *out)
{
  memset (out, 0, sizeof *out);
  const struct allocator *a;
  struct source_call call;
  if (site->kind == SITE_OPAQUE || !site_call_text (site, &a, &call))
    return false;

  struct span size = call.args[a->size_arg], helper[3];
  bool by_type;
  source_trim (&size);
  if (a->count_arg >= 0)
    {
      if (!source_sizeof_operand (size, &out->operand))
	{
	  size = call.args[a->count_arg];
	  source_trim (&size);
	  if (!source_sizeof_operand (size, &out->operand))
	    return false;
	}
    }
  else if (site->kind == SITE_FLEX
	   && source_struct_size_parts (size, helper, &by_type))
    {
      out->operand = helper[0];
      out->pointer = !by_type;
    }
  else if (!source_size_sizeof (size, site->kind, &out->operand))
    return false;
  out->type = resolve (site->call, &out->operand, out->pointer);
  return out->type != NULL_TREE;
}

/* Is SITE's size written with its element named by a sizeof (n *
   sizeof (u8)), as opposed to a bare number, the program's own byte
   scheme (sizeof (struct tty_buffer) + 2 * size for an unsigned long
   data[] used as bytes, drivers/tty/tty_buffer.c)?  False when the
   text cannot be read: no warning may depend on missing text.  */
bool
sizeof_element_typed (const struct alloc_site *site)
{
  const struct allocator *a;
  struct source_call call;
  if (!site_call_text (site, &a, &call) || a->count_arg >= 0)
    return false;
  struct span size = call.args[a->size_arg];
  source_trim (&size);
  struct span named = { -1, -1 };
  if (!source_size_typed_element (size, 0, &named))
    return false;
  if (named.from < 0)
    return true;
  /* The element kalloc sees must be made of what the sizeof names (GCC
     folds 2 * n * sizeof (u16) into n * 4): in sizeof (*p) + (1L << w) *
     sizeof (struct slot), GCC folds the product into a shift, and the
     size reads as bytes (drivers/scsi/mvsas).  */
  tree type = resolve (site->call, &named, false);
  if (!type || !TYPE_SIZE_UNIT (type)
      || !tree_fits_uhwi_p (TYPE_SIZE_UNIT (type)))
    return false;
  unsigned HOST_WIDE_INT named_size = tree_to_uhwi (TYPE_SIZE_UNIT (type));
  return named_size && site->elem_size % named_size == 0;
}

/* Is SITE's element a number written in the call with no sizeof at all
   (kmalloc_array (bytes, 2), kmalloc (n * 4)): the program's own byte
   scheme, not an element named for a type?  A size that comes through a
   temporary (kmalloc (bytes)) is not.  False when the text cannot be
   read.  */
bool
sizeof_size_bare (const struct alloc_site *site)
{
  const struct allocator *a;
  struct source_call call;
  if (!site_call_text (site, &a, &call))
    return false;
  const struct span *size = &call.args[a->size_arg];
  const struct span *count = a->count_arg >= 0 ? &call.args[a->count_arg]
					       : NULL;
  if (source_span_has_word (size, "sizeof")
      || (count && source_span_has_word (count, "sizeof")))
    return false;
  return source_size_literal_factor (*size)
	 || (count && source_size_literal_factor (*count));
}

/* ---- is it the wrong type? ------------------------------------------------ */

/* A structure's tag or typedef name, or NULL for an anonymous one.  */
static tree
type_name_id (tree type)
{
  tree name = TYPE_NAME (type);
  if (name && TREE_CODE (name) == TYPE_DECL)
    name = DECL_NAME (name);
  return name;
}

static bool same_type (tree a, tree b, int depth);

/* Two anonymous structures with the same members, in the same places.  */
static bool
same_members (tree a, tree b, int depth)
{
  tree fa = TYPE_FIELDS (a), fb = TYPE_FIELDS (b);
  for (; fa && fb; fa = DECL_CHAIN (fa), fb = DECL_CHAIN (fb))
    if (TREE_CODE (fa) != FIELD_DECL || TREE_CODE (fb) != FIELD_DECL
	|| DECL_NAME (fa) != DECL_NAME (fb)
	|| !tree_int_cst_equal (bit_position (fa), bit_position (fb))
	|| !same_type (TREE_TYPE (fa), TREE_TYPE (fb), depth + 1))
      return false;
  return !fa && !fb;
}

/* Are A and B the same type as C sees it for an object's layout:
   typedefs and qualifiers (at every level) aside, structures by tag,
   identical anonymous definitions alike?  */
static bool
same_type (tree a, tree b, int depth)
{
  if (depth > 8)
    return false;
  a = TYPE_MAIN_VARIANT (a);
  b = TYPE_MAIN_VARIANT (b);
  if (a == b)
    return true;
  if (TREE_CODE (a) != TREE_CODE (b))
    return false;
  switch (TREE_CODE (a))
    {
    case POINTER_TYPE:
      return same_type (TREE_TYPE (a), TREE_TYPE (b), depth + 1);
    case ARRAY_TYPE:
      return same_type (TREE_TYPE (a), TREE_TYPE (b), depth + 1)
	     && TYPE_SIZE (a) && TYPE_SIZE (b)
	     && tree_int_cst_equal (TYPE_SIZE (a), TYPE_SIZE (b));
    case RECORD_TYPE:
    case UNION_TYPE:
      if (type_name_id (a) || type_name_id (b))
	return type_name_id (a) == type_name_id (b);
      return same_members (a, b, depth);
    case INTEGER_TYPE:
    case ENUMERAL_TYPE:
    case BOOLEAN_TYPE:
      return TYPE_PRECISION (a) == TYPE_PRECISION (b)
	     && TYPE_UNSIGNED (a) == TYPE_UNSIGNED (b);
    default:
      return false;
    }
}

/* Does OUTER begin with an INNER (its first member, or that member's
   first member...): an object stored as a pointer to its first member.  */
static bool
starts_with (tree outer, tree inner)
{
  for (int depth = 0; depth < 8 && TREE_CODE (outer) == RECORD_TYPE; depth++)
    {
      tree f = TYPE_FIELDS (outer);
      while (f && TREE_CODE (f) != FIELD_DECL)
	f = DECL_CHAIN (f);
      if (!f || !integer_zerop (bit_position (f)))
	return false;
      if (same_type (TREE_TYPE (f), inner, 0))
	return true;
      outer = TREE_TYPE (f);
    }
  return false;
}

static bool
is_byte_type (tree type)
{
  return VOID_TYPE_P (type)
	 || (INTEGRAL_TYPE_P (type) && TYPE_PRECISION (type) <= BITS_PER_UNIT);
}

/* Is TYPE what C programs use for "some pointer": void, a character
   type (void *, char *)?  */
static bool
generic_pointee (tree type)
{
  return VOID_TYPE_P (type)
	 || (INTEGRAL_TYPE_P (type)
	     && TYPE_PRECISION (type) == TYPE_PRECISION (char_type_node));
}

/* Is TYPE written as long or unsigned long, or a typedef meant to be as
   wide as a pointer (uintptr_t, size_t)?  Every Linux ABI makes them
   pointer-wide (ILP32 and LP64), and code stores pointers in them on
   purpose.  A u64 or uint64_t that is unsigned long underneath is not
   one: it is 64 bits everywhere.  */
static bool
pointer_wide_integer (tree type)
{
  static const char *const names[] = {
    "uintptr_t", "intptr_t", "size_t", "ssize_t", "ulong",
    "kernel_ulong_t", "__kernel_ulong_t", "__kernel_size_t"
  };
  tree main = TYPE_MAIN_VARIANT (type);
  if (main != long_integer_type_node && main != long_unsigned_type_node)
    return false;
  tree name = TYPE_NAME (type);
  if (!name || TREE_CODE (name) != TYPE_DECL || !DECL_NAME (name)
      || DECL_ORIGINAL_TYPE (name) == NULL_TREE)
    return true;		/* long itself */
  const char *id = IDENTIFIER_POINTER (DECL_NAME (name));
  for (size_t i = 0; i < ARRAY_SIZE (names); i++)
    if (!strcmp (id, names[i]))
      return true;
  return false;
}

/* Are A and B the same pointee for an array of pointers: the same type,
   or integers of one width (long * for unsigned long * elements,
   drivers/net/ethernet/mellanox/mlx4/mr.c)?  */
static bool
same_pointee (tree a, tree b)
{
  return same_type (a, b, 0)
	 || (INTEGRAL_TYPE_P (a) && INTEGRAL_TYPE_P (b)
	     && TYPE_PRECISION (a) == TYPE_PRECISION (b));
}

/* Is DEST a member of a union with another member that TYPE is the
   element (or the type) of: the program allocates for one view and
   stores through another (drivers/md/dm-crypt.c's cipher_tfm.tfms and
   .tfms_aead)?  */
static bool
union_view (tree dest, tree type)
{
  if (!dest || TREE_CODE (dest) != COMPONENT_REF)
    return false;
  tree field = TREE_OPERAND (dest, 1);
  tree context = DECL_CONTEXT (field);
  if (!context || TREE_CODE (context) != UNION_TYPE)
    return false;
  for (tree f = TYPE_FIELDS (context); f; f = DECL_CHAIN (f))
    if (TREE_CODE (f) == FIELD_DECL && f != field
	&& (same_type (TREE_TYPE (f), type, 0)
	    || (POINTER_TYPE_P (TREE_TYPE (f))
		&& same_type (TREE_TYPE (TREE_TYPE (f)), type, 0))))
      return true;
  return false;
}

/* Elements that are pointers, sized with sizeof of ST: which mistake,
   if any.  */
static enum type_mismatch
pointer_elements (tree pointee, const struct sizeof_type *st)
{
  tree type = st->type;
  /* sizeof (struct row) for struct row * elements: the object the
     elements point to, a star forgotten (badty.cocci's shape).  Another
     structure is left alone.  */
  if (RECORD_OR_UNION_TYPE_P (type))
    return same_type (type, TREE_TYPE (pointee), 0) ? TM_TARGET_FOR_POINTER
						    : TM_NONE;
  if (!POINTER_TYPE_P (type))
    return pointer_wide_integer (type) || is_byte_type (type)
	   ? TM_NONE : TM_OBJECT_FOR_POINTER;
  if (same_type (type, pointee, 0))
    return TM_NONE;
  /* sizeof (p) for p = kcalloc (n, ...): T ** for T * elements.  */
  if (same_type (TREE_TYPE (type), pointee, 0))
    return TM_OWN_TYPE;
  tree a = TREE_TYPE (pointee), b = TREE_TYPE (type);
  if (same_pointee (a, b) || generic_pointee (a) || generic_pointee (b)
      || TREE_CODE (a) == FUNCTION_TYPE || TREE_CODE (b) == FUNCTION_TYPE)
    return TM_NONE;
  return TM_OTHER_POINTER;
}

/* Is ST's type the wrong one for SITE's pointee, though of its size?
   Structures: another structure of the same size (what can grow past
   the size named); integers of one size (int for a u32) are the same
   object to the allocator, and unions, byte sizes and a larger object
   stored as a pointer to its first member are left alone.  Pointers:
   the destination's own type (sizeof (p) for p's elements), a pointer
   to another object type, a pointer for an object or an object for a
   pointer (right by accident on one ABI, wrong on another); void * and
   char * are "some pointer", long is as wide as one.  A size that
   differs is the size warnings' business, but for pointers against
   objects, whose sizes agree on some targets only.  */
enum type_mismatch
sizeof_type_mismatch (const struct alloc_site *site,
		      const struct sizeof_type *st)
{
  tree type = st->type, pointee = site->pointee;
  if (!pointee || !type || union_view (site->dest, type))
    return TM_NONE;
  if (POINTER_TYPE_P (pointee) && !st->pointer)
    return pointer_elements (pointee, st);
  if (POINTER_TYPE_P (type) && !st->pointer
      && (INTEGRAL_TYPE_P (pointee) || SCALAR_FLOAT_TYPE_P (pointee))
      && !is_byte_type (pointee) && !pointer_wide_integer (pointee))
    return TM_POINTER_FOR_OBJECT;
  if (TREE_CODE (pointee) != RECORD_TYPE || same_type (type, pointee, 0))
    return TM_NONE;
  if (TREE_CODE (type) == UNION_TYPE || is_byte_type (type)
      || starts_with (type, pointee))
    return TM_NONE;
  /* A header and its tail: struct sdesc { struct shash_desc shash;
     char ctx[]; } allocated as sizeof (struct shash_desc) + descsize
     (crypto/drbg.c) names the first member, whose size the structure
     has when the flexible array follows it directly.  */
  unsigned HOST_WIDE_INT tail;
  if (starts_with (pointee, type) && flex_trailing_array (pointee, &tail))
    return TM_NONE;
  return TYPE_SIZE_UNIT (type) && TYPE_SIZE_UNIT (pointee)
	 && tree_int_cst_equal (TYPE_SIZE_UNIT (type),
				TYPE_SIZE_UNIT (pointee))
	 ? TM_OTHER_TYPE : TM_NONE;
}
