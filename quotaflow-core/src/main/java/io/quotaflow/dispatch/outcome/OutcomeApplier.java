package io.quotaflow.dispatch.outcome;

import io.quotaflow.dispatch.ledger.DispatchLedger;
import io.quotaflow.dispatch.ledger.InFlightBatch;
import io.quotaflow.dispatch.limit.ProviderModel;

import io.quotaflow.settings.RetrySettings;
import io.quotaflow.failure.ErrorKind;
import io.quotaflow.failure.ScopeHealth;
import io.quotaflow.llm.ModelOutcome;
import io.quotaflow.records.Classification;
import io.quotaflow.ticket.WorkItem;
import org.apache.kafka.streams.processor.api.Record;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.function.Function;
import java.util.random.RandomGenerator;
import io.quotaflow.failure.OutcomePolicy;
import io.quotaflow.settings.DeadlineAction;
import io.quotaflow.deadline.DeadlinePolicy;
import io.quotaflow.deadline.HandoffReason;

/**
 * Carries out what the {@link OutcomePolicy} decided for one answered call: the provider model
 * (limiter, calibration, context window, completion budget) and the scope's health hear the
 * outcome, a 429 pauses the scope with jitter, and each ticket's way (a result, back to pending, a
 * delayed retry, a dead letter) is returned as {@link Effects}: its ledger change with the record it
 * leads to, which the scope's executor applies together, so both commit together.
 */
public final class OutcomeApplier {

    private static final Logger LOG = LoggerFactory.getLogger(OutcomeApplier.class);
    /** Spilled tickets dead-lettered for their age per sweep at most (the sweep runs once a second). */
    static final int EXPIRE_SPILLED_PER_SWEEP = 10_000;

    private final String scope;
    /** What the log lines name the scope by: its routes ({@code route default}). */
    private final String who;
    private final RetrySettings retry;
    private final OutcomePolicy policy;
    private final ProviderModel provider;
    private final ScopeHealth health;
    private final DispatchLedger ledger;
    private final RecordEmitter emitter;
    private final RandomGenerator random;
    /** The route a ticket is on here (its name). */
    private final Function<WorkItem, String> routeOf;
    private final DeadlinePolicy deadlines;

    public OutcomeApplier(String scope, String who, RetrySettings retry, OutcomePolicy policy, ProviderModel provider, ScopeHealth health,
                   DispatchLedger ledger, RecordEmitter emitter, RandomGenerator random,
                   Function<WorkItem, String> routeOf, DeadlinePolicy deadlines) {
        this.routeOf = routeOf;
        this.deadlines = deadlines;
        this.scope = scope;
        this.who = who;
        this.retry = retry;
        this.policy = policy;
        this.provider = provider;
        this.health = health;
        this.ledger = ledger;
        this.emitter = emitter;
        this.random = random;
    }

    /**
     * The answer to {@code batch}, for those of its {@code items} still current; {@code admission}
     * is the call's, when this incarnation admitted it. The provider model and the health hear it now; what
     * it does to the tickets is returned, for the scope's executor to apply.
     */
    public Effects apply(InFlightBatch batch, List<WorkItem> items, ModelOutcome outcome, Optional<ProviderModel.Admission> admission, long now) {
        OutcomePolicy.Decision decision = policy.decide(batch.maxTokens(), items, outcome, now);
        if (items.isEmpty()) {
            // every ticket of the call was updated or withdrawn while it was out: no ticket goes
            // anywhere, but the scope's health still hears the provider (a half-open probe's
            // permit is given back this way), and a 429 still pauses the scope
            hear(decision, outcome, now);
            return Effects.none();
        }
        if (provider.learn(batch, items, outcome, decision, admission, ledger.callsInFlight())) {
            LOG.info("{}: the provider's context window is {} tokens; larger tickets are dead-lettered too-large "
                    + "without a call", who, provider.window().tokens());
        }
        hear(decision, outcome, now);
        Effects effects = new Effects();
        List<WorkItem> requeued = new ArrayList<>();
        for (OutcomePolicy.Action action : decision.actions()) {
            if (!(action instanceof OutcomePolicy.Action.Classify) && ledger.cancelledWhileOut(action.item().key())) {
                // cancelled while its call was out, and that call did not answer it: it ends here, nothing written
                effects.ledger(new Effects.Finish(action.item())).ended(new Effects.Cancelled(action.item()));
                continue;
            }
            if (action instanceof OutcomePolicy.Action.Classify c) {
                effects.and(classified(c.item(), c.label(), batch, (ModelOutcome.Answered) outcome, now));
            } else if (action instanceof OutcomePolicy.Action.Requeue r) {
                requeued.add(r.item());
            } else if (action instanceof OutcomePolicy.Action.Retry r) {
                RecordEmitter.Emitted emitted = emitter.retry(r.item(), r.kind(), r.status(), r.message(), r.hint(),
                        now - batch.dispatchedAt(), now);
                if (deadlines.settings().action() != DeadlineAction.KEEP
                        && DeadlinePolicy.retryMisses(r.item().deadline(), emitted.item().notBefore(), now - batch.dispatchedAt())) {
                    // its retry would come back too late for its deadline: it leaves now, before the deadline
                    effects.and(missed(emitted.item(), HandoffReason.ETA, emitted.item().notBefore() + (now - batch.dispatchedAt()), now));
                    continue;
                }
                String kind = r.kind();
                effects.ledger(new Effects.Retried(emitted.item())).ended(new Effects.RetriedAs(emitted.item(), kind))
                        .forward(emitted.record()).notice(l -> l.retried(scope, kind));
            } else if (action instanceof OutcomePolicy.Action.DeadLetter d) {
                effects.and(deadLetter(d.item(), d.kind(), d.status(), d.message(), now));
            }
        }
        return effects.ledger(new Effects.Requeue(requeued)).ended(new Effects.Requeued(requeued));
    }

    /**
     * The answer to a halted scope's probe, a call of its own that carries no ticket
     * ({@link io.quotaflow.llm.PromptBuilder#probe}): the health hears it as any call's answer (accepted:
     * dispatch resumes; refused again: the next probe an interval later; a 429: the key works, the scope
     * cools down), and a call refused before admission gives its charge back.
     */
    public void probed(ModelOutcome outcome, Optional<ProviderModel.Admission> admission, long now) {
        OutcomePolicy.Decision decision = policy.decide(1, List.of(), outcome, now);
        if (decision.refund()) {
            admission.ifPresent(a -> provider.refund(a));
        }
        hear(decision, outcome, now);
    }

    /** The scope's health hears what the call's outcome means; a 429 pauses the scope. */
    private void hear(OutcomePolicy.Decision decision, ModelOutcome outcome, long now) {
        switch (decision.health()) {
            case SUCCEEDED -> health.succeeded(now, outcome.latencyMs());
            case FAILED -> health.failed(now, outcome.latencyMs(), decision.reason());
            case RATE_LIMITED -> health.rateLimited(now);
            case HALT -> health.halt(now, decision.reason());
        }
        decision.cooldown().ifPresent(wait -> coolDown(wait, decision.reason()));
    }

    /**
     * Dead-letters tickets past the maximum age: those that already failed at least once, and all
     * of them while the circuit is open (an outage longer than the budget ends in the dead-letter
     * topic, ready for replay). A halted scope dead-letters nothing: a fixed key resumes the work. Only decides:
     * the ledger is read, and the effects returned take the tickets from it ({@link Effects.Take}) and dead-letter them.
     */
    public Effects expireOld(long now) {
        Effects effects = new Effects();
        if (health.halted()) {
            return effects;
        }
        long maxAge = retry.maxAge().toMillis();
        boolean outage = health.circuitOpen();
        // decided from what the ledger holds, only read; the executor takes them (spilled ones, the newest of
        // their class, are read from the oldest, bounded per sweep, and only in an outage)
        List<WorkItem> old = ledger.expiring(r -> now - r.enqueuedAt() >= maxAge && (r.attempt() > 0 || outage), now - maxAge,
                outage ? EXPIRE_SPILLED_PER_SWEEP : 0);
        if (old.isEmpty()) {
            return effects;
        }
        effects.ledger(new Effects.Take(old.stream().map(WorkItem::key).toList()));
        for (WorkItem item : old) {
            String last = item.failure() == null ? "none (never dispatched: circuit " + health.circuitState() + ")"
                    : item.failure().kind() + ": " + item.failure().message();
            effects.and(deadLetter(item, ErrorKind.RETRIES_EXHAUSTED.wire(), item.failure() == null ? 0 : item.failure().status(),
                    "older than " + retry.maxAge().toSeconds() + " s after " + item.attempt() + " attempts; last error: " + last,
                    now));
        }
        return effects;
    }

    /**
     * Ends {@code item}, which will miss its deadline: answered from a stale cache entry if there is one, else
     * as {@code deadline.action} says: handed off, or shed ({@code keep} never comes here). {@code etaAt}: when
     * it would have been done (0: not known).
     */
    public Effects missed(WorkItem item, HandoffReason reason, long etaAt, long now) {
        // an answer past its TTL, within cache.stale-ttl, rather than none in time; else as deadline.action says
        Effects otherwise = deadlines.settings().action() == DeadlineAction.SHED
                ? deadLetter(item, ErrorKind.SHED.wire(), 0, "would miss its deadline " + java.time.Instant.ofEpochMilli(item.deadline())
                        + " (" + reason.wire() + "): shed (deadline.action=shed)", now)
                : handOff(item, reason, etaAt, now);
        return new Effects().choose(new Effects.StaleAnswer(item, otherwise));
    }

    /** Writes {@code item} to {@code tickets.handoff}: one outcome, in the same transaction as its removal here. */
    Effects handOff(WorkItem item, HandoffReason reason, long etaAt, long now) {
        String route = routeOf.apply(item);
        Record<String, Outbound> record = emitter.handoff(item, reason.wire(), etaAt, route, now);
        return new Effects().ledger(new Effects.Finish(item)).ended(new Effects.HandedOff(item, reason.wire())).forward(record)
                .notice(l -> {
                    l.handedOff(scope, route, item.priority(), reason.wire());
                    LOG.debug("{}: ticket {} handed off ({}), deadline {}", who, item.key(), reason.wire(), item.deadline());
                });
    }

    /** Ends {@code item} in the dead-letter topic (a {@code too-large} one goes to a context fallback if it has one). */
    public Effects deadLetter(WorkItem item, String kind, int status, String message, long now) {
        Effects letter = new Effects().forward(emitter.deadLetter(item, kind, status, message, now))
                .ended(new Effects.DeadLettered(item, kind, status, message)).notice(l -> l.deadLettered(scope, kind));
        Effects effects = new Effects().ledger(new Effects.Finish(item));
        return ErrorKind.TOO_LARGE.wire().equals(kind) ? effects.choose(new Effects.ContextFallback(item, letter)) : effects.and(letter);
    }

    private Effects classified(WorkItem item, ModelOutcome.Label label, InFlightBatch batch, ModelOutcome.Answered answered, long now) {
        Classification result = emitter.classification(item, label, batch, answered, now);
        Record<String, Outbound> record = emitter.classified(item, result, now);
        // when the call went out: the wait before it, the call and what follows it can be told apart downstream
        record.headers().add(io.quotaflow.records.ResultHeaders.SENT_AT,
                Long.toString(batch.dispatchedAt()).getBytes(java.nio.charset.StandardCharsets.US_ASCII));
        return new Effects().ledger(new Effects.Finish(item)).ended(new Effects.Classified(item, result)).forward(record)
                .notice(l -> {
                    l.classified(scope, item.priority(), result.queuedMs(), Math.max(0, now - item.enqueuedAt()));
                    l.answered(scope, item.priority(), item.attempt() == 0, item.retryWaitMs());
                });
    }

    /** A 429: the whole scope pauses for the provider's wait plus up to a quarter of it (at most 1 s) of jitter. */
    private void coolDown(Duration wait, String reason) {
        Duration jitter = Duration.ofMillis(random.nextLong(Math.max(1, Math.min(1000, wait.toMillis() / 4 + 50))));
        provider.rateLimited(wait.plus(jitter));
        LOG.warn("{}: provider answered 429 ({}); all dispatch paused for {} ms, burst allowance now {} %", who,
                reason, wait.plus(jitter).toMillis(), Math.round(provider.burstScale() * 100));
    }
}
