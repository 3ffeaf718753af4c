package io.quotaflow.dispatch.ledger;

import io.quotaflow.dispatch.queue.PendingQueue;
import io.quotaflow.records.Priority;
import io.quotaflow.ticket.WorkItem;
import org.apache.kafka.streams.state.KeyValueStore;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.Predicate;
import java.util.function.ToIntFunction;

/**
 * Where a scope's tickets are: the four changelogged stores and their in-memory indexes.
 *
 * <ul>
 *   <li>{@code pending}: every ticket waiting <em>or in flight</em>, by id (the latest copy of it);
 *   <li>{@code in-flight}: each outstanding call, by batch id, naming the copies it sent (small);
 *   <li>{@code delayed}: retries held until their {@code qf.not-before};
 *   <li>{@code retrying}: retries on their way through {@code tickets.retry} ({@link RetryMarker}).
 * </ul>
 *
 * <p>A ticket re-published while a copy of it is held replaces that copy (it keeps its place in the
 * queue); an identical re-publish changes nothing; a retry record that a newer copy overtook is
 * dropped when it comes back. So the latest content is the one classified, exactly once.
 *
 * <p>Bounds (docs/design.md, "Bounds"): at most {@code queue.max-pending} waiting tickets of the scope
 * are indexed in memory ({@link PendingQueue}); the others are <em>spilled</em>: they stay in
 * {@code pending} like every waiting ticket, and {@code overflow} (changelogged too) orders them by
 * {@code <scope>|<class>|<arrival>|<key>}, so the queue refills from its front, highest class and
 * oldest first, a bounded number per tick ({@link #refill}). A ticket arriving while its class or a
 * higher one has tickets spilled, or while the queue is full, is spilled behind them. Everything that
 * asks whether the scope holds a ticket (held, cancels, updates, notices, expiry, restore, status)
 * finds a spilled one through its overflow key, derived from its copy in {@code pending}.
 */
public final class DispatchLedger {

    /** What {@link #accept} did with an arriving ticket. */
    public enum Acceptance {
        /** Held: nothing of it was held before. */
        ACCEPTED,
        /** It replaced an older copy that was waiting (or whose call is out: that answer is ignored). */
        REPLACED,
        /** The same content was already held or on its way: nothing changed. */
        IDENTICAL,
        /** A retry record overtaken by a newer copy: dropped. */
        SUPERSEDED
    }

    /** A finished call: the tickets its answer is for, and those an update superseded meanwhile. */
    public record Completed(InFlightBatch batch, List<WorkItem> items, int superseded) {
    }

    final KeyValueStore<String, WorkItem> pending;
    final KeyValueStore<String, WorkItem> delayed;
    final KeyValueStore<String, InFlightBatch> inFlight;
    final KeyValueStore<String, RetryMarker> retrying;
    /** Tickets cancelled while their call was out (key → when), until that call's answer is applied. */
    final KeyValueStore<String, Long> cancels;
    private final Set<String> cancelledWhileOut = new HashSet<>();
    final PendingQueue queue;
    final TreeSet<DelayedRef> delayedIndex =
            new TreeSet<>(Comparator.comparingLong(DelayedRef::notBefore).thenComparing(DelayedRef::id));
    final Set<String> inFlightIds = new HashSet<>();
    final Set<String> inFlightBatches = new HashSet<>();
    /** The tickets beyond {@code queue.max-pending}, waiting on disk. */
    final Spill spill;

    /** A ledger whose queue shares tenants by {@code queue}'s weights and caps, all in memory (nothing spills). */
    public DispatchLedger(KeyValueStore<String, WorkItem> pending, KeyValueStore<String, WorkItem> delayed,
                   KeyValueStore<String, InFlightBatch> inFlight, KeyValueStore<String, RetryMarker> retrying,
                   KeyValueStore<String, Long> cancels, PendingQueue queue) {
        this(pending, delayed, inFlight, retrying, cancels, queue, null, "", Integer.MAX_VALUE);
    }

    /**
     * A ledger of scope {@code scope} whose queue holds at most {@code maxPending} tickets in memory,
     * the others spilled to {@code overflow}.
     */
    public DispatchLedger(KeyValueStore<String, WorkItem> pending, KeyValueStore<String, WorkItem> delayed,
                   KeyValueStore<String, InFlightBatch> inFlight, KeyValueStore<String, RetryMarker> retrying,
                   KeyValueStore<String, Long> cancels, PendingQueue queue, KeyValueStore<String, String> overflow, String scope,
                   int maxPending) {
        if (maxPending < 1) {
            throw new IllegalArgumentException("queue.max-pending must be >= 1, got " + maxPending);
        }
        this.spill = new Spill(overflow, java.util.Objects.requireNonNull(scope, "scope"), maxPending, queue);
        this.queue = queue;
        this.cancels = cancels;
        this.pending = pending;
        this.delayed = delayed;
        this.inFlight = inFlight;
        this.retrying = retrying;
    }

    /** {@link #restore(Predicate, Predicate)} keeping no call: every interrupted call's tickets wait again. */
    public Restored restore(Predicate<WorkItem> mine) {
        return restore(mine, id -> false);
    }

    /** Rebuilds the indexes of the tickets {@code mine} claims ({@link LedgerRestore#restore}); a call {@code kept} names stays out. */
    public Restored restore(Predicate<WorkItem> mine, Predicate<String> kept) {
        return LedgerRestore.restore(this, mine, kept);
    }

    /**
     * The copy of ticket {@code id} this ledger holds (waiting, with its call out, or delayed), if
     * any: the stores may be shared with other scopes' ledgers, so it asks its own indexes.
     */
    public Optional<WorkItem> held(String id) {
        if (queue.contains(id) || inFlightIds.contains(id)) {
            return Optional.ofNullable(pending.get(id));
        }
        if (spill.any()) {
            WorkItem waiting = pending.get(id);
            if (waiting != null && spill.isSpilled(waiting)) {
                return Optional.of(waiting);
            }
        }
        WorkItem later = delayed.get(id);
        return later != null && delayedIndex.contains(new DelayedRef(later.notBefore(), id)) ? Optional.of(later) : Optional.empty();
    }

    /** Takes in a ticket from the dispatch topic: a new one, an update, or a retry coming back ({@link LedgerIntake#accept}). */
    public Acceptance accept(WorkItem item, long now) {
        return LedgerIntake.accept(this, item, now);
    }

    void hold(WorkItem item, long now) {
        if (item.notBefore() > now) {
            delayed.put(item.key(), item);
            delayedIndex.add(new DelayedRef(item.notBefore(), item.key()));
        } else {
            pending.put(item.key(), item);
            index(item, false);
        }
    }

    /** {@code capPaid}: see {@link PendingQueue.Ref#capPaid}; a ticket spilled to disk loses it (and may count once more). */
    void index(WorkItem item, boolean capPaid) {
        if (inFlightIds.contains(item.key()) || queue.contains(item.key())) {
            return;
        }
        if (spill.must(item.priority())) {
            spill.spill(item.priority(), ref(item, false));
        } else {
            queue.add(item.priority(), ref(item, capPaid));
        }
    }

    /** Tickets of this scope spilled to disk, per class. */
    public int spilled(Priority priority) {
        return spill.spilled(priority);
    }

    /** Estimated prompt tokens of the tickets spilled in a class. */
    public long spilledTokens(Priority priority) {
        return spill.spilledTokens(priority);
    }

    public int spilledTotal() {
        return spill.total();
    }

    /** Tickets spilled and brought back since this ledger started (the benchmark's and the logs' counters). */
    public long spilledEver() {
        return spill.spilledEver();
    }

    public long refilledEver() {
        return spill.refilledEver();
    }

    /** The arrival of the oldest spilled ticket of a class (one seek). */
    public Optional<Long> oldestSpilled(Priority priority) {
        return spill.oldest(priority);
    }

    /**
     * Brings spilled tickets back while the queue has room: highest class first, oldest first, at
     * most {@link Spill#REFILL_PER_TICK}. An entry whose ticket is gone or changed is dropped. Returns how
     * many came back.
     */
    public int refill() {
        return spill.refill(pending::get, inFlightIds::contains, item -> ref(item, false));
    }

    /**
     * The waiting tickets {@code predicate} matches, and up to {@code spilledMax} spilled ones that arrived by
     * {@code spilledBy} (none when 0): only read; the caller takes them ({@link #take}, {@link #finish}) once decided.
     */
    public List<WorkItem> expiring(Predicate<PendingQueue.Ref> predicate, long spilledBy, int spilledMax) {
        List<WorkItem> out = new java.util.ArrayList<>();
        for (PendingQueue.Ref ref : queue.matching(predicate)) {
            WorkItem item = pending.get(ref.id());
            if (item != null) {
                out.add(item);
            }
        }
        if (spilledMax > 0) {
            out.addAll(spill.due(spilledBy, spilledMax, pending::get));
        }
        return out;
    }

    /** Removes up to {@code max} spilled tickets that arrived by {@code arrivedBy}, oldest first per class (O(returned)). */
    public List<WorkItem> expireSpilled(long arrivedBy, int max) {
        return spill.expire(arrivedBy, max, pending::get, pending::delete);
    }

    /** Deletes the overflow entries of scopes not in {@code owned} (no longer configured here); returns how many. */
    public static int dropOrphanOverflow(KeyValueStore<String, String> overflow, List<String> owned) {
        return Spill.dropOrphans(overflow, owned);
    }

    static PendingQueue.Ref ref(WorkItem item, boolean capPaid) {
        return new PendingQueue.Ref(item.key(), item.tenant(), item.tokens(), item.enqueuedAt(), item.batchCap(), item.attempt(),
                item.original().length, item.routed().fellBack(), item.deadline(), capPaid);
    }

    /** The first {@code limit} retries held for later, by due time (a store read each). */
    public List<io.quotaflow.status.QueueView.Retry> delayedFirst(int limit) {
        return DelayedRetries.first(this, limit);
    }

    /** Moves retries whose time has come to pending. */
    public void promoteDue(long now) {
        DelayedRetries.promoteDue(this, now);
    }

    public PendingQueue queue() {
        return queue;
    }

    public Optional<PendingQueue.Proposal> propose(int maxItems, ToIntFunction<Priority> maxTokens, long maxBytes, long now) {
        return queue.propose(maxItems, maxTokens, maxBytes, now);
    }

    /** The tickets of a proposal, as held (a ticket gone meanwhile is left out). */
    public List<WorkItem> load(PendingQueue.Proposal proposal) {
        List<WorkItem> items = new ArrayList<>(proposal.refs().size());
        for (PendingQueue.Ref ref : proposal.refs()) {
            WorkItem item = pending.get(ref.id());
            if (item != null) {
                items.add(item);
            }
        }
        return items;
    }

    /**
     * Records a call as sent: its tickets leave the queue (charged to their tenants) but stay in
     * {@code pending}. Returns the tokens charged per tenant.
     */
    public java.util.Map<String, Long> dispatched(PendingQueue.Proposal proposal, InFlightBatch batch) {
        java.util.Map<String, Long> charged = queue.admit(proposal, batch.dispatchedAt());
        batch.members().forEach(m -> inFlightIds.add(m.id()));
        inFlight.put(batch.batchId(), batch);
        inFlightBatches.add(batch.batchId());
        return charged;
    }

    /** Drops a proposal whose tickets are all gone. */
    public void discard(PendingQueue.Proposal proposal) {
        queue.remove(proposal);
    }

    /**
     * The call {@code batchId} came back. Tickets replaced by an update meanwhile go back to the
     * queue (the answer is for content that no longer counts); the others are returned for the
     * outcome to be applied to, and must each end in {@link #finish}, {@link #retried} or
     * {@link #requeue}.
     */
    public Optional<Completed> complete(String batchId) {
        InFlightBatch batch = inFlight.get(batchId);
        inFlightBatches.remove(batchId);
        if (batch == null) {
            return Optional.empty();
        }
        inFlight.delete(batchId);
        List<WorkItem> items = new ArrayList<>(batch.size());
        int superseded = 0;
        for (InFlightBatch.Member member : batch.members()) {
            inFlightIds.remove(member.id());
            WorkItem current = pending.get(member.id());
            if (current == null) {
                continue;
            }
            if (member.sent(current)) {
                items.add(current);
            } else {
                superseded++;
                index(current, false);
            }
        }
        return Optional.of(new Completed(batch, items, superseded));
    }

    /** The ticket is done here (classified or dead-lettered). */
    public void finish(WorkItem item) {
        if (spill.any() && !queue.contains(item.key()) && !inFlightIds.contains(item.key())) {
            spill.unspill(pending.get(item.key()));
        }
        pending.delete(item.key());
        forgetCancel(item.key());
    }

    /**
     * A cancel for {@code key} arrived while its call is out: remembered (in the store, so a new
     * owner knows it too), so that if the call fails the ticket ends instead of being retried; if it
     * succeeds the answer is written as usual.
     */
    public void cancelWhileOut(String key, long now) {
        cancels.put(key, now);
        cancelledWhileOut.add(key);
    }

    /** Whether {@code key} was cancelled while its call was out. */
    public boolean cancelledWhileOut(String key) {
        return cancelledWhileOut.contains(key);
    }

    void forgetCancel(String key) {
        if (cancelledWhileOut.remove(key)) {
            cancels.delete(key);
        }
    }

    /** The ticket went to {@code tickets.retry}: it is remembered until the record comes back. */
    public void retried(WorkItem item) {
        pending.delete(item.key());
        retrying.put(item.key(), RetryMarker.of(item));
    }

    /**
     * The tickets wait again, as given: after a call that did not answer them (cut, bisected, rate limited, halted, a batch
     * job that ended without them; {@code capPaid}: their tenants' caps were charged when it was admitted, and are not
     * again), or split before it was sent (still to be charged).
     */
    public void requeue(List<WorkItem> items, boolean capPaid) {
        for (WorkItem item : items) {
            pending.put(item.key(), item);
            index(item, capPaid);
        }
    }

    /** The waiting tickets named by {@code ids} (in the queue, not spilled), read and left where they are. */
    public List<WorkItem> waiting(java.util.Collection<String> ids) {
        return LedgerExits.waiting(this, ids);
    }

    /** Takes the waiting tickets named by {@code ids} out of the queue and the store (the ones not waiting stay as they are). */
    public List<WorkItem> take(java.util.Collection<String> ids) {
        return LedgerExits.take(this, ids);
    }

    /** Drops the copy of {@code id} held here and any retry of it on its way back ({@link LedgerExits#withdraw}). */
    public void withdraw(String id) {
        LedgerExits.withdraw(this, id);
    }

    /** Whether a call about {@code id} is out. */
    public boolean inFlight(String id) {
        return inFlightIds.contains(id);
    }

    /** The marker of the retry of {@code id} on its way back (which publication it is), if one is. */
    public Optional<RetryMarker> retryingMarker(String id) {
        RetryMarker marker = retrying.get(id);
        return marker != null && !marker.superseded() ? Optional.of(marker) : Optional.empty();
    }

    /** Whether a retry of {@code id} is on its way back through the retry topic. */
    public boolean retrying(String id) {
        RetryMarker marker = retrying.get(id);
        return marker != null && !marker.superseded();
    }

    public int delayedCount() {
        return delayedIndex.size();
    }

    /** The work waiting below the interactive class, in memory and spilled. */
    public Backlog backlog() {
        return Backlog.of(queue, spill);
    }

    public boolean backlogged() {
        return spill.any();
    }

    public int callsInFlight() {
        return inFlightBatches.size();
    }
}
