package io.quotaflow.dispatch.outcome;


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

import java.util.Optional;
import java.util.function.Predicate;

/**
 * Puts one scope's dispatcher behind the cache and coalescing (docs/design.md, "Cache"): an
 * arriving ticket the cache answers is classified at once ({@code cached: true}, no call), one
 * identical to a ticket waiting or in flight follows it, any other goes to the ledger; when a
 * ticket ends here its followers share the end (its answer, its dead letter), and when it leaves
 * (a fallback, a context fallback) the next of them leads. The decisions are the
 * {@link Coalescer}'s; the gate keeps the cache and returns everything else as values ({@link Effects},
 * {@link Admission}): the ledger's changes (a copy withdrawn, a follower that leads), the statuses, the records and
 * the metrics' notices, which the scope's executor applies. It reads the ledger, never changes it.
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
    /** Whether the ledger holds a ticket's id (waiting, delayed, out, or on its way back from the retry topic): read only. */
    private final Predicate<String> held;
    private final RecordEmitter emitter;
    private final java.util.function.BooleanSupplier cannotServe;
    /** The last sweep found a full batch of expired answers due. */
    private boolean behind;

    /**
     * For {@code scope}: {@code held} reads whether its ledger holds an id, {@code cannotServe} whether the scope can
     * call now; the gate changes neither, it returns what the executor applies.
     */
    public CacheGate(String scope, ModelSettings model, boolean sharedAcrossTenants, Coalescer coalescer, Predicate<String> held,
                     RecordEmitter emitter, java.util.function.BooleanSupplier cannotServe) {
        this.cannotServe = cannotServe;
        this.scope = scope;
        this.model = model;
        this.sharedAcrossTenants = sharedAcrossTenants;
        this.coalescer = coalescer;
        this.held = held;
        this.emitter = emitter;
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
        Arrival arrival = coalescer.onArrival(item, keyOf(item), held.test(item.key()), now);
        boolean lead = arrival instanceof Arrival.Lead || arrival instanceof Arrival.Pass;
        Effects effects = depart(arrival.departure(), item.key(), !lead);
        if (arrival instanceof Arrival.Hit hit) {
            return Admission.answered(effects.notice(l -> l.cacheHit(scope)).and(answered(item, hit.answer(), false, false, now)));
        }
        if (arrival instanceof Arrival.Join join) {
            if (!join.repeated()) {
                effects.notice(l -> l.cacheHit(scope));
            }
            return Admission.answered(effects.ended(new Effects.Following(item)));
        }
        if (arrival instanceof Arrival.Lead l && l.newContent()) {
            effects.notice(n -> n.cacheMiss(scope));
        }
        return new Admission(true, effects);
    }

    /** {@code item} was answered by its call: the answer is cached and classifies its followers (their effects returned). */
    public Effects classified(WorkItem item, Classification result, long now) {
        Answered answered = coalescer.onAnswered(keyOf(item), item.key(),
                new Answer(result.category(), result.urgency(), result.model(), result.promptTokens(), result.completionTokens()), now);
        Effects out = Effects.none();
        for (WorkItem follower : answered.followers()) {
            out.and(answered(follower, answered.answer(), false, false, now));
        }
        return out;
    }

    /** {@code item} was dead-lettered: its followers share its fate (their effects returned). */
    public Effects deadLettered(WorkItem item, String kind, int status, String message, long now) {
        Effects out = Effects.none();
        for (WorkItem follower : coalescer.onLeaderFailed(keyOf(item), item.key())) {
            out.forward(emitter.deadLetter(follower, kind, status, "the identical ticket it followed failed: " + message, now))
                    .ended(new Effects.FollowedIntoDeadLetter(follower, kind)).notice(l -> l.deadLettered(scope, kind));
        }
        return out;
    }

    /** {@code item} left for another route: the next of its followers leads here (the ledger change returned). */
    public Effects left(WorkItem item) {
        return depart(coalescer.leave(item.key()), item.key(), false);
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
     * A departure as ledger changes: a follower promoted to lead goes to the ledger; the held copy of {@code id} is
     * withdrawn when the new copy does not lead (it is answered otherwise).
     */
    private static Effects depart(Departure departure, String id, boolean withdrawHeld) {
        Effects effects = Effects.none();
        if (departure instanceof Departure.HandedOver handed) {
            if (withdrawHeld) {
                effects.ledger(new Effects.Withdraw(id));
            }
            handed.newLeader().ifPresent(leader -> effects.ledger(new Effects.Lead(leader)));
        }
        return effects;
    }

    /**
     * A new ticket (nothing here holds its id, it follows nobody) that the scope cannot serve now, with an answer
     * past its TTL but within {@code cache.stale-ttl} and no live one: answered from it, marked stale.
     */
    private Optional<Effects> answeredStale(WorkItem item, long now) {
        if (!cannotServe.getAsBoolean() || held.test(item.key()) || coalescer.membership(item.key()).isPresent()) {
            return Optional.empty();
        }
        Optional<CachedAnswer> stale = coalescer.cache().stale(keyOf(item), now);
        if (stale.isEmpty()) {
            return Optional.empty();
        }
        return Optional.of(answered(item, stale.get(), true, false, now).notice(l -> l.staleCacheHit(scope)));
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
        return Optional.of(new Effects().ledger(new Effects.Finish(item)).and(answered(item, stale.get(), true, true, now))
                .notice(l -> l.staleCacheHit(scope)));
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
}
