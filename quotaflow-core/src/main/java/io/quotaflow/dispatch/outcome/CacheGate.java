package io.quotaflow.dispatch.outcome;

import io.quotaflow.dispatch.ledger.DispatchLedger;
import io.quotaflow.dispatch.ledger.TicketStatuses;
import io.quotaflow.dispatch.report.DispatcherListener;

import io.quotaflow.cache.Answer;
import io.quotaflow.cache.Answered;
import io.quotaflow.cache.Arrival;
import io.quotaflow.cache.CachedAnswer;
import io.quotaflow.cache.Coalescer;
import io.quotaflow.cache.ContentKey;
import io.quotaflow.cache.Departure;
import io.quotaflow.settings.ModelSettings;
import io.quotaflow.records.Classification;
import io.quotaflow.ticket.WorkItem;
import org.apache.kafka.streams.processor.api.Record;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Puts one scope's dispatcher behind the cache and coalescing (docs/design.md, "Cache"): an
 * arriving ticket the cache answers is classified at once ({@code cached: true}, no call), one
 * identical to a ticket waiting or in flight follows it, any other goes to the ledger; when a
 * ticket ends here its followers share the end (its answer, its dead letter), and when it leaves
 * (a fallback, a context fallback) the next of them leads. The decisions are the
 * {@link Coalescer}'s; this carries them out on the ledger and returns what is written as values
 * ({@link Effects}, {@link Admission}): the scope's executor forwards the records.
 *
 * <p>While the scope cannot serve ({@code cannotServe}: halted, circuit open, out for the day), a new ticket
 * the live cache does not answer is answered from an answer past its TTL but within {@code cache.stale-ttl}
 * ({@code "stale": true}) rather than wait for the route (docs/design.md, "Degrade and inform").
 */
public final class CacheGate {

    private final String scope;
    private final ModelSettings model;
    /** {@code cache.scope=global}: identical text of two tenants shares one answer (else each tenant has its own). */
    private final boolean sharedAcrossTenants;
    private final Coalescer coalescer;
    private final DispatchLedger ledger;
    private final RecordEmitter emitter;
    private final DispatcherListener listener;
    private final TicketStatuses statuses;
    private final java.util.function.BooleanSupplier cannotServe;
    /** The last sweep found a full batch of expired answers due. */
    private boolean behind;

    public CacheGate(String scope, ModelSettings model, boolean sharedAcrossTenants, Coalescer coalescer, DispatchLedger ledger, RecordEmitter emitter,
              DispatcherListener listener, TicketStatuses statuses,
              java.util.function.BooleanSupplier cannotServe) {
        this.statuses = statuses;
        this.cannotServe = cannotServe;
        this.scope = scope;
        this.model = model;
        this.sharedAcrossTenants = sharedAcrossTenants;
        this.coalescer = coalescer;
        this.ledger = ledger;
        this.emitter = emitter;
        this.listener = listener;
    }

    /** The content key of {@code item} under this scope's model (from the hash the intake took, else from its bytes). */
    ContentKey keyOf(WorkItem item) {
        ContentKey key = item.contentKey() != null ? ContentKey.of(item.contentKey(), model) : ContentKey.of(item, model);
        return sharedAcrossTenants ? key : key.forTenant(item.tenant());
    }

    /**
     * What became of an arriving ticket at the cache.
     *
     * @param toLedger whether the ledger should take it as before the cache
     * @param effects  what the executor applies (a ticket answered on arrival: its record, status and metrics)
     */
    public record Admission(boolean toLedger, Effects effects) {

        static Admission taken() {
            return new Admission(true, Effects.none());
        }

        static Admission answered(Effects effects) {
            return new Admission(false, effects);
        }
    }

    /** Offers an arriving ticket: to the ledger, or answered (its effects returned), or following an identical ticket. */
    public Admission admit(WorkItem item, long now) {
        Optional<Effects> stale = answeredStale(item, now);
        if (stale.isPresent()) {
            return Admission.answered(stale.get());
        }
        Arrival arrival = coalescer.onArrival(item, keyOf(item), ledger.held(item.key()).isPresent() || ledger.retrying(item.key()),
                now);
        boolean lead = arrival instanceof Arrival.Lead || arrival instanceof Arrival.Pass;
        depart(arrival.departure(), item.key(), !lead, now);
        if (arrival instanceof Arrival.Hit hit) {
            listener.cacheHit(scope);
            return Admission.answered(answered(item, hit.answer(), false, false, now));
        }
        if (arrival instanceof Arrival.Join join) {
            if (!join.repeated()) {
                listener.cacheHit(scope);
            }
            statuses.following(item, now);
            return Admission.answered(Effects.none());
        }
        if (arrival instanceof Arrival.Lead l && l.newContent()) {
            listener.cacheMiss(scope);
        }
        return Admission.taken();
    }

    /** {@code item} was answered by its call: the answer is cached and classifies its followers (their records returned). */
    public List<Record<String, Outbound>> classified(WorkItem item, Classification result, long now) {
        Answered answered = coalescer.onAnswered(keyOf(item), item.key(),
                new Answer(result.category(), result.urgency(), result.model(), result.promptTokens(), result.completionTokens()), now);
        List<Record<String, Outbound>> out = new ArrayList<>();
        for (WorkItem follower : answered.followers()) {
            out.add(classified(follower, answered.answer(), false, now));
        }
        return out;
    }

    /** {@code item} was dead-lettered: its followers share its fate (their records returned). */
    public List<Record<String, Outbound>> deadLettered(WorkItem item, String kind, int status, String message, long now) {
        List<WorkItem> followers = coalescer.onLeaderFailed(keyOf(item), item.key());
        List<Record<String, Outbound>> out = new ArrayList<>();
        for (WorkItem follower : followers) {
            out.add(emitter.deadLetter(follower, kind, status, "the identical ticket it followed failed: " + message, now));
            listener.deadLettered(scope, kind);
            statuses.deadLettered(follower, kind, now);
        }
        return out;
    }

    /** {@code item} left for another route: the next of its followers leads here. */
    public void left(WorkItem item, long now) {
        depart(coalescer.leave(item.key()), item.key(), false, now);
    }

    /** Cancels {@code id} if it only follows an identical ticket here (nothing else holds it); true when it did. */
    public boolean cancel(String id, long now) {
        java.util.Optional<io.quotaflow.cache.Membership> m = coalescer.membership(id);
        if (m.isEmpty() || m.get().leads()) {
            return false;
        }
        coalescer.leave(id);
        return true;
    }

    /** Expired answers deleted per call at most. */
    static final int SWEEP_MAX = 1_000;

    /** Removes the expired answers that are due (bounded work per call); true when more may be due. */
    public boolean sweep(long now) {
        behind = coalescer.cache().sweep(now, SWEEP_MAX) >= SWEEP_MAX;
        return behind;
    }

    /** Sweeps again when the last sweep found a full batch due, instead of waiting for the next second's. */
    public void sweepIfBehind(long now) {
        if (behind) {
            sweep(now);
        }
    }

    /**
     * Carries out a departure: a follower promoted to lead goes to the ledger; the held copy of
     * {@code id} is withdrawn when the new copy does not lead (it is answered otherwise).
     */
    private void depart(Departure departure, String id, boolean withdrawHeld, long now) {
        if (departure instanceof Departure.HandedOver handed) {
            if (withdrawHeld) {
                ledger.withdraw(id);
            }
            handed.newLeader().ifPresent(leader -> ledger.accept(leader, now));
        }
    }

    /**
     * A new ticket (nothing here holds its id, it follows nobody) that the scope cannot serve now, with an answer
     * past its TTL but within {@code cache.stale-ttl} and no live one: answered from it, marked stale.
     */
    private Optional<Effects> answeredStale(WorkItem item, long now) {
        if (!cannotServe.getAsBoolean() || ledger.held(item.key()).isPresent() || ledger.retrying(item.key())
                || coalescer.membership(item.key()).isPresent()) {
            return Optional.empty();
        }
        Optional<CachedAnswer> stale = coalescer.cache().stale(keyOf(item), now);
        if (stale.isEmpty()) {
            return Optional.empty();
        }
        listener.staleCacheHit(scope);
        return Optional.of(answered(item, stale.get(), true, false, now));
    }

    /**
     * Answers {@code item}, taken from the ledger because it will miss its deadline, from an answer past its TTL but
     * within {@code cache.stale-ttl}, if there is one ({@code "stale": true}): its effects (finished in the ledger,
     * its record; its next follower then leads), or empty when there is none.
     */
    public Optional<Effects> answerStale(WorkItem item, long now) {
        Optional<CachedAnswer> stale = coalescer.cache().stale(keyOf(item), now);
        if (stale.isEmpty()) {
            return Optional.empty();
        }
        listener.staleCacheHit(scope);
        return Optional.of(new Effects().ledger(new Effects.Finish(item)).and(answered(item, stale.get(), true, true, now)));
    }

    /**
     * {@code item} answered from {@code answer}: its record, its status ({@code cached}) and metrics, and, with
     * {@code leaves}, its next follower leading; as effects for the executor.
     */
    private Effects answered(WorkItem item, CachedAnswer answer, boolean stale, boolean leaves, long now) {
        Classification result = emitter.cached(item, answer, stale, now);
        Record<String, Outbound> record = emitter.classified(item, result, now);
        return new Effects().ended(new Effects.AnsweredFromCache(item, leaves)).forward(record).notice(l -> {
            l.classified(scope, item.priority(), result.queuedMs(), Math.max(0, now - item.enqueuedAt()));
            l.answered(scope, item.priority(), Boolean.TRUE.equals(result.firstTry()), item.retryWaitMs());
        });
    }

    /** The classification record of {@code item} answered from {@code answer}; its status and metrics are told now. */
    private Record<String, Outbound> classified(WorkItem item, CachedAnswer answer, boolean stale, long now) {
        Classification result = emitter.cached(item, answer, stale, now);
        Record<String, Outbound> record = emitter.classified(item, result, now);
        listener.classified(scope, item.priority(), result.queuedMs(), Math.max(0, now - item.enqueuedAt()));
        listener.answered(scope, item.priority(), Boolean.TRUE.equals(result.firstTry()), item.retryWaitMs());
        statuses.classified(item, true, now);
        return record;
    }
}
