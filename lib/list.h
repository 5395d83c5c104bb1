/*
 * lib/list.h - circular doubly linked lists, Linux's struct list_head.
 *
 * A list is a head node whose next/prev point to the first and last
 * entries; an empty list points to itself.  Entries embed a list_head
 * and are recovered with list_entry() (container_of).  Every node on a
 * list satisfies node->next->prev == node and node->prev->next == node.
 *
 * list_del() leaves the removed node pointing at LIST_POISON1/2, values
 * that are never mapped, so that a use after removal faults on an
 * address a reader recognises instead of silently corrupting a list;
 * use list_del_init() when the node is to be tested or reused.
 */
#ifndef LIB_LIST_H
#define LIB_LIST_H

#include "lib/compiler.h"
#include "lib/types.h"

struct list_head {
	struct list_head *next, *prev;
};

#define LIST_POISON1 ((struct list_head *)0x00100100)
#define LIST_POISON2 ((struct list_head *)0x00200200)

#define LIST_HEAD_INIT(name) { &(name), &(name) }
#define LIST_HEAD(name) struct list_head name = LIST_HEAD_INIT(name)

static inline void INIT_LIST_HEAD(struct list_head *list)
{
	WRITE_ONCE(list->next, list);
	list->prev = list;
}

/* Inserts new between two known consecutive entries. */
static inline void __list_add(struct list_head *new, struct list_head *prev,
			      struct list_head *next)
{
	next->prev = new;
	WRITE_ONCE(new->next, next);	/* list_empty(new) without the lock */
	new->prev = prev;
	WRITE_ONCE(prev->next, new);
}

/* Adds new right after head: a stack push. */
static inline void list_add(struct list_head *new, struct list_head *head)
{
	__list_add(new, head, head->next);
}

/* Adds new right before head, i.e. at the end: a queue append. */
static inline void list_add_tail(struct list_head *new, struct list_head *head)
{
	__list_add(new, head->prev, head);
}

/* Joins prev and next, dropping whatever lay between them. */
static inline void __list_del(struct list_head *prev, struct list_head *next)
{
	next->prev = prev;
	WRITE_ONCE(prev->next, next);
}

static inline void __list_del_entry(struct list_head *entry)
{
	__list_del(entry->prev, entry->next);
}

/* Removes entry and poisons it; list_empty() on it is then undefined. */
static inline void list_del(struct list_head *entry)
{
	__list_del_entry(entry);
	entry->next = LIST_POISON1;
	entry->prev = LIST_POISON2;
}

/* Removes entry and leaves it an empty list of its own. */
static inline void list_del_init(struct list_head *entry)
{
	__list_del_entry(entry);
	INIT_LIST_HEAD(entry);
}

/* Puts new where old was; old keeps its stale pointers. */
static inline void list_replace(struct list_head *old, struct list_head *new)
{
	new->next = old->next;
	new->next->prev = new;
	new->prev = old->prev;
	new->prev->next = new;
}

static inline void list_replace_init(struct list_head *old,
				     struct list_head *new)
{
	list_replace(old, new);
	INIT_LIST_HEAD(old);
}

/* Deletes list from one list and adds it as head's first entry. */
static inline void list_move(struct list_head *list, struct list_head *head)
{
	__list_del_entry(list);
	list_add(list, head);
}

/* Deletes list from one list and adds it as head's last entry. */
static inline void list_move_tail(struct list_head *list,
				  struct list_head *head)
{
	__list_del_entry(list);
	list_add_tail(list, head);
}

static inline bool list_is_first(const struct list_head *list,
				 const struct list_head *head)
{
	return list->prev == head;
}

static inline bool list_is_last(const struct list_head *list,
				const struct list_head *head)
{
	return list->next == head;
}

static inline bool list_is_head(const struct list_head *list,
				const struct list_head *head)
{
	return list == head;
}

static inline bool list_empty(const struct list_head *head)
{
	return READ_ONCE(head->next) == head;
}

/* Exactly one entry. */
static inline bool list_is_singular(const struct list_head *head)
{
	return !list_empty(head) && (head->next == head->prev);
}

/* Moves the first entry to the end. */
static inline void list_rotate_left(struct list_head *head)
{
	if (!list_empty(head))
		list_move_tail(head->next, head);
}

static inline void __list_cut_position(struct list_head *list,
				       struct list_head *head,
				       struct list_head *entry)
{
	struct list_head *new_first = entry->next;

	list->next = head->next;
	list->next->prev = list;
	list->prev = entry;
	entry->next = list;
	head->next = new_first;
	new_first->prev = head;
}

/*
 * list_cut_position - move the initial part of a list to another list.
 * @list: an empty list (whatever it held is overwritten)
 * @head: the list to cut
 * @entry: an entry of @head; it and all entries before it move to @list.
 *	   When @entry is @head itself, @list just ends up empty.
 */
static inline void list_cut_position(struct list_head *list,
				     struct list_head *head,
				     struct list_head *entry)
{
	if (list_empty(head))
		return;
	if (list_is_singular(head) && !list_is_head(entry, head) &&
	    entry != head->next)
		return;
	if (list_is_head(entry, head))
		INIT_LIST_HEAD(list);
	else
		__list_cut_position(list, head, entry);
}

/* Links the entries of list in between prev and next. */
static inline void __list_splice(const struct list_head *list,
				 struct list_head *prev,
				 struct list_head *next)
{
	struct list_head *first = list->next;
	struct list_head *last = list->prev;

	first->prev = prev;
	prev->next = first;
	last->next = next;
	next->prev = last;
}

/* Puts list's entries at the front of head; list itself is left stale. */
static inline void list_splice(const struct list_head *list,
			       struct list_head *head)
{
	if (!list_empty(list))
		__list_splice(list, head, head->next);
}

/* Puts list's entries at the end of head; list itself is left stale. */
static inline void list_splice_tail(struct list_head *list,
				    struct list_head *head)
{
	if (!list_empty(list))
		__list_splice(list, head->prev, head);
}

/* As list_splice(), then reinitialises list as empty. */
static inline void list_splice_init(struct list_head *list,
				    struct list_head *head)
{
	if (!list_empty(list)) {
		__list_splice(list, head, head->next);
		INIT_LIST_HEAD(list);
	}
}

/* As list_splice_tail(), then reinitialises list as empty. */
static inline void list_splice_tail_init(struct list_head *list,
					 struct list_head *head)
{
	if (!list_empty(list)) {
		__list_splice(list, head->prev, head);
		INIT_LIST_HEAD(list);
	}
}

#define list_entry(ptr, type, member) container_of(ptr, type, member)

/* The list must not be empty. */
#define list_first_entry(ptr, type, member) \
	list_entry((ptr)->next, type, member)

/* The list must not be empty. */
#define list_last_entry(ptr, type, member) \
	list_entry((ptr)->prev, type, member)

#define list_first_entry_or_null(ptr, type, member)                         \
	({                                                                   \
		struct list_head *__head = (ptr);                            \
		struct list_head *__pos = READ_ONCE(__head->next);           \
		__pos != __head ? list_entry(__pos, type, member) : NULL;    \
	})

#define list_next_entry(pos, member) \
	list_entry((pos)->member.next, __typeof__(*(pos)), member)

#define list_prev_entry(pos, member) \
	list_entry((pos)->member.prev, __typeof__(*(pos)), member)

/* True when pos, an entry cursor, has come round to the head. */
#define list_entry_is_head(pos, head, member) (&(pos)->member == (head))

/* A cursor usable by list_for_each_entry_continue() (NULL: from start). */
#define list_prepare_entry(pos, head, member) \
	((pos) ? : list_entry(head, __typeof__(*(pos)), member))

#define list_for_each(pos, head) \
	for (pos = (head)->next; !list_is_head(pos, (head)); pos = pos->next)

#define list_for_each_prev(pos, head) \
	for (pos = (head)->prev; !list_is_head(pos, (head)); pos = pos->prev)

/* Survives removal of pos: n already holds the next node. */
#define list_for_each_safe(pos, n, head)                                    \
	for (pos = (head)->next, n = pos->next; !list_is_head(pos, (head));  \
	     pos = n, n = pos->next)

#define list_for_each_entry(pos, head, member)                              \
	for (pos = list_first_entry(head, __typeof__(*pos), member);         \
	     !list_entry_is_head(pos, head, member);                         \
	     pos = list_next_entry(pos, member))

#define list_for_each_entry_reverse(pos, head, member)                      \
	for (pos = list_last_entry(head, __typeof__(*pos), member);          \
	     !list_entry_is_head(pos, head, member);                         \
	     pos = list_prev_entry(pos, member))

/* Carries on after pos (pos itself is not visited again). */
#define list_for_each_entry_continue(pos, head, member)                     \
	for (pos = list_next_entry(pos, member);                             \
	     !list_entry_is_head(pos, head, member);                         \
	     pos = list_next_entry(pos, member))

#define list_for_each_entry_continue_reverse(pos, head, member)             \
	for (pos = list_prev_entry(pos, member);                             \
	     !list_entry_is_head(pos, head, member);                         \
	     pos = list_prev_entry(pos, member))

/* Carries on from pos (pos itself included). */
#define list_for_each_entry_from(pos, head, member)                         \
	for (; !list_entry_is_head(pos, head, member);                       \
	     pos = list_next_entry(pos, member))

/* Survives removal of pos: n already holds the next entry. */
#define list_for_each_entry_safe(pos, n, head, member)                      \
	for (pos = list_first_entry(head, __typeof__(*pos), member),         \
	     n = list_next_entry(pos, member);                               \
	     !list_entry_is_head(pos, head, member);                         \
	     pos = n, n = list_next_entry(n, member))

#define list_for_each_entry_safe_reverse(pos, n, head, member)              \
	for (pos = list_last_entry(head, __typeof__(*pos), member),          \
	     n = list_prev_entry(pos, member);                               \
	     !list_entry_is_head(pos, head, member);                         \
	     pos = n, n = list_prev_entry(n, member))

/* Re-reads n after the loop body may have changed the list around pos. */
#define list_safe_reset_next(pos, n, member) \
	n = list_next_entry(pos, member)

static inline size_t list_count_nodes(const struct list_head *head)
{
	const struct list_head *pos;
	size_t count = 0;

	for (pos = head->next; pos != head; pos = pos->next)
		count++;
	return count;
}

#endif /* LIB_LIST_H */
