package io.quotaflow.dispatch.ledger;

import io.quotaflow.dispatch.queue.PendingQueue;
import io.quotaflow.records.Priority;
import io.quotaflow.ticket.WorkItem;
import org.apache.kafka.common.serialization.StringSerializer;
import org.apache.kafka.streams.KeyValue;
import org.apache.kafka.streams.state.KeyValueIterator;
import org.apache.kafka.streams.state.KeyValueStore;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.function.Consumer;
import java.util.function.Function;
import java.util.function.Predicate;

/**
 * A scope's tickets beyond {@code queue.max-pending}, waiting on disk ({@link DispatchLedger}, docs/design.md,
 * "Bounds"): their overflow keys ({@code <scope>|<class>|<arrival>|<key>}, highest class, then oldest, first)
 * and their counts per class. Their tickets stay in {@code pending}; the ledger owns that store and hands
 * this what it needs of it. With no overflow store nothing spills.
 */
final class Spill {

    /** Spilled tickets brought back to the queue per tick at most. */
    static final int REFILL_PER_TICK = 2_000;
    private static final char SEP = '|';
    private static final int TIME_DIGITS = 19;
    private static final StringSerializer KEYS = new StringSerializer();

    private final KeyValueStore<String, String> overflow;
    private final String scope;
    private final int maxPending;
    private final PendingQueue queue;
    private final int[] spilled = new int[Priority.values().length];
    private final long[] spilledTokens = new long[Priority.values().length];
    private long spilledEver;
    private long refilledEver;

    Spill(KeyValueStore<String, String> overflow, String scope, int maxPending, PendingQueue queue) {
        this.overflow = overflow;
        this.scope = scope;
        this.maxPending = maxPending;
        this.queue = queue;
    }

    /** Whether the in-memory queue is full and a ticket may wait on disk. */
    boolean queueFull() {
        return overflow != null && queue.size() >= maxPending;
    }

    /** Whether a ticket of {@code priority} waits on disk: the queue is full, or its class or a higher one has tickets there. */
    boolean must(Priority priority) {
        if (overflow == null) {
            return false;
        }
        if (queue.size() >= maxPending) {
            return true;
        }
        for (int p = 0; p <= priority.ordinal(); p++) {
            if (spilled[p] > 0) {
                return true;
            }
        }
        return false;
    }

    void spill(Priority priority, PendingQueue.Ref ref) {
        overflow.put(spillKey(scope, priority, ref.enqueuedAt(), ref.id()), ref.id());
        count(priority, 1, ref.tokens());
        spilledEver++;
    }

    /** Whether the overflow store has {@code item}'s entry (read on restore, whatever the counts say). */
    boolean holds(WorkItem item) {
        return overflow != null && overflow.get(spillKey(item)) != null;
    }

    /** Forgets {@code item}'s overflow entry if it is spilled here; true if it was. */
    boolean unspill(WorkItem item) {
        if (item == null || !any()) {
            return false;
        }
        String key = spillKey(item);
        if (overflow.get(key) == null) {
            return false;
        }
        overflow.delete(key);
        count(item.priority(), -1, -item.tokens());
        return true;
    }

    boolean isSpilled(WorkItem item) {
        return any() && overflow.get(spillKey(item)) != null;
    }

    boolean any() {
        return overflow != null && total() > 0;
    }

    void count(Priority priority, int tickets, long tokens) {
        spilled[priority.ordinal()] = Math.max(0, spilled[priority.ordinal()] + tickets);
        spilledTokens[priority.ordinal()] = Math.max(0, spilledTokens[priority.ordinal()] + tokens);
    }

    private String spillKey(WorkItem item) {
        return spillKey(scope, item.priority(), item.enqueuedAt(), item.key());
    }

    /** {@code <scope>|<class ordinal>|<19-digit arrival>|<key>}: a scope's spilled tickets, highest class, then oldest, first. */
    static String spillKey(String scope, Priority priority, long enqueuedAt, String key) {
        return prefix(scope, priority) + pad(enqueuedAt) + SEP + key;
    }

    private static String prefix(String scope, Priority priority) {
        return scope + SEP + priority.ordinal() + SEP;
    }

    /** The prefix of every overflow key of {@code scope}. */
    static String scopePrefix(String scope) {
        return scope + SEP;
    }

    /** Deletes the overflow entries of scopes not in {@code owned}; returns how many. */
    static int dropOrphans(KeyValueStore<String, String> overflow, List<String> owned) {
        Set<String> prefixes = new HashSet<>();
        owned.forEach(s -> prefixes.add(scopePrefix(s)));
        List<String> orphans = new ArrayList<>();
        try (KeyValueIterator<String, String> it = overflow.all()) {
            it.forEachRemaining(kv -> {
                int sep = kv.key.indexOf(SEP);
                if (sep < 0 || !prefixes.contains(kv.key.substring(0, sep + 1))) {
                    orphans.add(kv.key);
                }
            });
        }
        orphans.forEach(overflow::delete);
        return orphans.size();
    }

    private static String pad(long time) {
        String digits = Long.toString(Math.max(0, time));
        return "0".repeat(Math.max(0, TIME_DIGITS - digits.length())) + digits;
    }

    int spilled(Priority priority) {
        return spilled[priority.ordinal()];
    }

    long spilledTokens(Priority priority) {
        return spilledTokens[priority.ordinal()];
    }

    int total() {
        int n = 0;
        for (int s : spilled) {
            n += s;
        }
        return n;
    }

    long spilledEver() {
        return spilledEver;
    }

    long refilledEver() {
        return refilledEver;
    }

    /** The arrival of the oldest spilled ticket of a class (one seek). */
    Optional<Long> oldest(Priority priority) {
        if (overflow == null || spilled[priority.ordinal()] == 0) {
            return Optional.empty();
        }
        String prefix = prefix(scope, priority);
        try (KeyValueIterator<String, String> it = overflow.prefixScan(prefix, KEYS)) {
            if (it.hasNext()) {
                String k = it.next().key;
                return Optional.of(Long.parseLong(k.substring(prefix.length(), prefix.length() + TIME_DIGITS)));
            }
        }
        return Optional.empty();
    }

    /**
     * Brings spilled tickets back while the queue has room ({@link DispatchLedger#refill}): the ticket of an entry
     * is read with {@code pending}; one {@code out} (its call is out) is not queued; {@code ref} makes its queue entry.
     */
    int refill(Function<String, WorkItem> pending, Predicate<String> out, Function<WorkItem, PendingQueue.Ref> ref) {
        if (!any()) {
            return 0;
        }
        int room = Math.min(maxPending - queue.size(), REFILL_PER_TICK);
        int back = 0;
        for (Priority p : Priority.values()) {
            if (room <= 0) {
                break;
            }
            if (spilled[p.ordinal()] == 0) {
                continue;
            }
            List<KeyValue<String, String>> front = new ArrayList<>();
            boolean more;
            try (KeyValueIterator<String, String> it = overflow.prefixScan(prefix(scope, p), KEYS)) {
                while (front.size() < room && it.hasNext()) {
                    front.add(it.next());
                }
                more = it.hasNext();
            }
            for (KeyValue<String, String> kv : front) {
                overflow.delete(kv.key);
                WorkItem item = pending.apply(kv.value);
                if (item != null && spillKey(item).equals(kv.key) && !out.test(item.key())) {
                    count(p, -1, -item.tokens());
                    queue.add(p, ref.apply(item));
                    back++;
                    room--;
                }
            }
            if (!more) {
                // the class's range is empty now: whatever the counts said (a stale entry) is settled
                spilled[p.ordinal()] = 0;
                spilledTokens[p.ordinal()] = 0;
            }
        }
        refilledEver += back;
        return back;
    }

    /**
     * Removes up to {@code max} spilled tickets that arrived at or before {@code arrivedBy} ({@link DispatchLedger#expireSpilled}),
     * read with {@code pending} and removed from it with {@code delete}.
     */
    /**
     * The spilled tickets that arrived by {@code arrivedBy}, oldest of each class first, at most {@code max}: only
     * read (the caller finishes each in the ledger, which takes it off the overflow).
     */
    List<WorkItem> due(long arrivedBy, int max, Function<String, WorkItem> pending) {
        List<WorkItem> out = new ArrayList<>();
        if (!any()) {
            return out;
        }
        String bound = pad(arrivedBy);
        for (Priority p : Priority.values()) {
            if (spilled[p.ordinal()] == 0) {
                continue;
            }
            String prefix = prefix(scope, p);
            try (KeyValueIterator<String, String> it = overflow.prefixScan(prefix, KEYS)) {
                while (out.size() < max && it.hasNext()) {
                    KeyValue<String, String> kv = it.next();
                    if (kv.key.substring(prefix.length(), prefix.length() + TIME_DIGITS).compareTo(bound) > 0) {
                        break;
                    }
                    WorkItem item = pending.apply(kv.value);
                    if (item != null && spillKey(item).equals(kv.key)) {
                        out.add(item);
                    }
                }
            }
        }
        return out;
    }

    List<WorkItem> expire(long arrivedBy, int max, Function<String, WorkItem> pending, Consumer<String> delete) {
        List<WorkItem> out = new ArrayList<>();
        if (!any()) {
            return out;
        }
        String bound = pad(arrivedBy);
        for (Priority p : Priority.values()) {
            if (spilled[p.ordinal()] == 0) {
                continue;
            }
            String prefix = prefix(scope, p);
            List<KeyValue<String, String>> due = new ArrayList<>();
            try (KeyValueIterator<String, String> it = overflow.prefixScan(prefix, KEYS)) {
                while (out.size() + due.size() < max && it.hasNext()) {
                    KeyValue<String, String> kv = it.next();
                    if (kv.key.substring(prefix.length(), prefix.length() + TIME_DIGITS).compareTo(bound) > 0) {
                        break;
                    }
                    due.add(kv);
                }
            }
            for (KeyValue<String, String> kv : due) {
                overflow.delete(kv.key);
                WorkItem item = pending.apply(kv.value);
                if (item != null && spillKey(item).equals(kv.key)) {
                    count(p, -1, -item.tokens());
                    delete.accept(kv.value);
                    out.add(item);
                }
            }
        }
        return out;
    }
}
