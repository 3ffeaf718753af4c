package io.quotaflow.dispatch;

import io.quotaflow.dispatch.outcome.Arrivals;
import io.quotaflow.dispatch.report.UsageKeeper;
import io.quotaflow.dispatch.report.ScopeReport;
import io.quotaflow.ticket.Publication;
import io.quotaflow.dispatch.call.BatchCaller;
import io.quotaflow.dispatch.call.CallSender;
import io.quotaflow.dispatch.ledger.DispatchLedger;
import io.quotaflow.dispatch.ledger.InFlightBatch;
import io.quotaflow.dispatch.ledger.Lanes;
import io.quotaflow.dispatch.ledger.TicketStatuses;
import io.quotaflow.dispatch.outcome.CacheGate;
import io.quotaflow.dispatch.outcome.OutcomeApplier;
import io.quotaflow.dispatch.outcome.RecordEmitter;
import io.quotaflow.dispatch.queue.DeadlineSweep;
import io.quotaflow.dispatch.limit.ProviderModel;
import io.quotaflow.dispatch.report.DispatcherListener;
import io.quotaflow.dispatch.report.DispatcherSnapshot;
import io.quotaflow.dispatch.report.SnapshotTaker;

import io.quotaflow.cache.Coalescer;
import io.quotaflow.settings.DispatcherSettings;
import io.quotaflow.settings.RouteSettings;
import io.quotaflow.settings.RetrySettings;
import io.quotaflow.failure.Backoff;
import io.quotaflow.failure.ScopeHealth;
import io.quotaflow.llm.ModelClient;
import io.quotaflow.llm.ModelOutcome;
import io.quotaflow.llm.PromptBuilder;
import io.quotaflow.quota.EpochNanoClock;
import io.quotaflow.quota.ScopeUsage;
import io.quotaflow.routing.FallbackReason;
import io.quotaflow.ticket.WorkItem;
import io.quotaflow.tracing.Tracing;
import org.apache.kafka.streams.state.KeyValueStore;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.random.RandomGenerator;
import io.quotaflow.failure.OutcomePolicy;
import io.quotaflow.deadline.DeadlinePolicy;

/**
 * One quota scope's dispatching: its ledger view, queue, provider model, health and calls. It
 * batches the scope's tickets highest priority first, admits each call through the limiter, sends
 * it without blocking, and applies what came back; tickets that must leave the scope (a fallback,
 * a context fallback) go to the {@link RouteMover}. The {@link DispatcherProcessor} holds one per
 * scope whose tickets reach its task and drives them from its punctuator.
 */
final class ScopeDispatcher {

    private static final Logger LOG = LoggerFactory.getLogger(ScopeDispatcher.class);
    /** The Batch API's completion window: a batch route's tickets may be dead-lettered for their age this much later. */
    static final java.time.Duration BATCH_WINDOW = io.quotaflow.settings.BatchApiSettings.COMPLETION_WINDOW;

    private final String scope;
    private final DispatcherSettings settings;
    private final DispatchLedger ledger;
    private final ProviderModel provider;
    private final ScopeHealth health;
    private final OutcomeApplier outcomes;
    private final CallSender calls;
    /** A batch route's calls (docs/design.md, "Batch routes"); null on an online route. */
    private final BatchCaller batch;
    private final CacheGate gate;
    /** Carries out the planner's steps: the dispatch loop of each tick. */
    private final StepExecutor steps;
    /** Tickets arriving, cancelled or superseded. */
    private final ScopeIntake intake;
    /** The once-a-second fallbacks and deadlines. */
    private final ScopeSweep sweeps;
    /** Applies what the outcomes decide, in a fixed order ({@link EffectExecutor}). */
    private final EffectExecutor effects;
    /** An online scope's halt probe, a call of its own (no ticket); null on a batch route. */
    private final HaltProber haltProber;
    /** The scope's pace and its reports to /status and the metrics. */
    private final ScopeReport report;

    /** A scope whose calls go through {@code batch} (a batch route's), or to {@code client} when it is null. */
    ScopeDispatcher(String scope, DispatcherSettings settings, ModelClient client, RandomGenerator random, DispatcherListener listener,
                    DispatchOutput output, DispatchLedger ledger, RouteMover mover, Coalescer coalescer,
                    KeyValueStore<String, ScopeUsage> usage, EpochNanoClock clock, TicketStatuses statuses, BatchCaller batch,
                    Tracing tracing) {
        this.batch = batch;
        this.report = new ScopeReport(settings, listener, new UsageKeeper(usage, scope));
        this.scope = scope;
        this.settings = settings;
        this.ledger = ledger;
        this.provider = new ProviderModel(settings, new PromptBuilder(settings.model()), clock);
        String who = who(settings, scope);
        this.health = new ScopeHealth(scope, who, settings.retry(), (from, to) -> listener.circuitTransition(scope, from, to));
        this.health.at(output.now());
        RecordEmitter emitter = new RecordEmitter(scope, settings.model().model(), new Backoff(settings.retry(), random),
                settings.routing().routesOf(scope).get(0).name(), tracing);
        this.gate = new CacheGate(scope, settings.model(), settings.routing().cacheShared(), coalescer,
                id -> ledger.held(id).isPresent() || ledger.retrying(id), emitter,
                () -> health.halted() || health.circuitOpen() || provider.outForDayUntil().isPresent());
        // a batch route's tickets may wait out a whole completion window before a failed line sends them round again
        RetrySettings aging = batch == null ? settings.retry() : settings.retry().withMaxAge(settings.retry().maxAge().plus(BATCH_WINDOW));
        DeadlinePolicy deadlinePolicy = new DeadlinePolicy(settings.deadlines());
        Arrivals arrivals = new Arrivals();
        this.effects = new EffectExecutor(scope, ledger, statuses, gate, mover, listener, output, this::routeOf, arrivals);
        this.outcomes = new OutcomeApplier(scope, who, aging, new OutcomePolicy(settings.retry()), provider, health, ledger,
                emitter, random, item -> routeOf(item).name(), deadlinePolicy);
        this.intake = new ScopeIntake(scope, who, settings, ledger, gate, outcomes, effects, statuses, listener, tracing, arrivals);
        this.sweeps = new ScopeSweep(scope, who, settings, ledger, mover, gate, outcomes, effects, new DeadlineSweep(deadlinePolicy), this::routeOf);
        this.calls = new CallSender(client, tracing.calls(settings.model()));
        this.haltProber = batch == null ? new HaltProber(scope, settings.model().model(), provider, health, listener, calls, outcomes) : null;
        this.steps = new StepExecutor(scope, ledger, provider, health, batch, calls, outcomes, effects, listener, statuses, report.pace(),
                StepExecutor.planner(settings.batch(), settings.limits().maxBatchBytes()));
    }

    /**
     * What the log names the scope by: {@code route default}, or {@code routes a, b (scope …)} when routes
     * share it; never its hash alone.
     */
    static String who(DispatcherSettings settings, String scope) {
        List<String> names = settings.routing().routesOf(scope).stream().map(RouteSettings::name).toList();
        if (names.isEmpty()) {
            return "scope " + scope;
        }
        return names.size() == 1 ? "route " + names.get(0) : "routes " + String.join(", ", names) + " (scope " + scope + ")";
    }

    /**
     * Rebuilds this scope's share of the stores ({@code mine}: its tickets), taking over from its previous
     * owner, whose unknown calls went out at least {@code quietBound} ago ({@link ProviderModel#takeOver}; without a record
     * of one, the refill since this instance started, {@code startedNanos}, is credited over the same bound).
     */
    void restore(java.util.function.Predicate<WorkItem> mine, java.time.Duration quietBound, long startedNanos, long now) {
        Set<String> jobCalls = batch == null ? Set.of() : batch.restore(now);
        io.quotaflow.dispatch.ledger.Restored r = ledger.restore(mine, jobCalls::contains);
        for (WorkItem cancelled : r.cancelled()) {
            // cancelled while the previous owner's call was out: that call is forgotten, so it ends now
            effects.withdrawn(cancelled, now);
        }
        provider.takeOver(report.usage().read(), quietBound, r.calls(), r.callTokens(), startedNanos);
        if (r.any()) {
            report.activate();
            LOG.info("{}: restored {} pending ({} from {} interrupted calls), {} delayed, {} calls in batch jobs", who(settings, scope), r.pending(),
                    r.fromCalls(), r.calls(), r.delayed(), r.kept());
        }
    }

    /**
     * A ticket arriving from the dispatch topic: the cache may answer it, or an identical ticket's call ({@link ScopeIntake#accept}).
     * The first interactive ticket to arrive between two ticks is dispatched at once, as a tick would (its call of its own, from
     * the reserve, when the limiter and the in-flight limit have room), rather than at the next tick; the others wait for that
     * tick, which batches them, so a burst of them costs at most one call more a tick.
     */
    void accept(WorkItem item, long now) {
        report.activate();
        intake.accept(item, now);
        if (Lanes.interactive(item.priority())) {
            steps.interactiveArrived(now);
        }
    }

    /** Cancels ticket {@code id} if this scope holds it and has not sent it ({@link ScopeIntake#cancel}). */
    void cancel(String id, long now) {
        intake.cancel(id, now);
    }

    /** A newer publication of a ticket went to another scope ({@link ScopeIntake#supersede}). */
    void supersede(Publication newer, long now) {
        intake.supersede(newer, now);
    }

    void punctuate(long now) {
        provider.tick(now);
        health.at(now);
        calls.drain((batchId, outcome) -> completed(batchId, outcome, now));
        if (batch != null) {
            batch.tick(now, new BatchAnswers());
        }
        ledger.promoteDue(now);
        ledger.refill();
        if (haltProber != null) {
            haltProber.probe(now);
        }
        steps.tick(now);
        report.usage().keep(provider.usage());
        gate.sweepIfBehind(now);
        report.tick(now, () -> snapshot(now), ledger);
    }

    /** Once a second: expiry by age, the halt log, expired cache answers, and fallbacks. */
    void sweep(long now) {
        effects.apply(outcomes.expireOld(now), now);
        gate.sweep(now);
        health.logHalt(now, false);
        if (report.active()) {
            // only the owner speaks for the scope: the idle copies in other tasks know nothing of it
            // read once: the fallbacks and the deadlines decide from the same standing
            Optional<FallbackReason> blocked = blocked();
            sweeps.publishState(blocked.isEmpty());
            sweeps.fallBack(blocked, probesHaltApart(), now);
            sweeps.keepDeadlines(health, report.pace(), blocked, why -> resumesAt(why, now), now);
        }
    }

    /** When a scope blocked for {@code why} serves again: an open circuit's wait, the day's reset (a halt: its next probe, above). */
    private long resumesAt(FallbackReason why, long now) {
        return switch (why) {
            case CIRCUIT_OPEN -> health.resumesAt(now);
            case OUT_FOR_DAY -> provider.outForDayUntil().orElse(Long.MAX_VALUE);
            default -> Long.MAX_VALUE;
        };
    }

    /** Whether a halt here is probed with a call of its own ({@link HaltProber}: an online route), not with a ticket. */
    boolean probesHaltApart() {
        return batch == null;
    }

    /** One call's answer, on the stream thread. */
    private void completed(String batchId, ModelOutcome outcome, long now) {
        if (haltProber != null && haltProber.answered(batchId, outcome, now)) {
            return;
        }
        Optional<DispatchLedger.Completed> done = ledger.complete(batchId);
        steps.ended(batchId);
        Optional<ProviderModel.Admission> admission = provider.answered(batchId, outcome);
        provider.engineNotice().ifPresent(notice -> LOG.warn("{}: {}", who(settings, scope), notice));
        report.pace().answered(outcome.latencyMs());
        if (done.isEmpty()) {
            return;
        }
        InFlightBatch batch = done.get().batch();
        report.completed(scope, outcome, batch.size());
        if (done.get().superseded() > 0) {
            LOG.debug("scope {}: {} tickets of call {} were updated while it was out; their answers are ignored", scope,
                    done.get().superseded(), batchId);
        }
        effects.apply(outcomes.apply(batch, done.get().items(), outcome, admission, now), now);
    }

    /**
     * A batch job ended (expired, cancelled) before it got to call {@code callId}: with {@code fallback}, its tickets
     * go to the route's first online fallback that holds them, or, with none, wait here for the next job; without
     * (a job refused for the enqueued limit) every ticket waits here. Nothing is written for them here, and no
     * attempt is consumed.
     */
    private void unfinished(String callId, boolean fallback, long now) {
        Optional<DispatchLedger.Completed> done = ledger.complete(callId);
        steps.ended(callId);
        if (done.isEmpty()) {
            return;
        }
        health.released(now);
        effects.unanswered(done.get().items(), fallback, now);
    }

    /** A batch route's outcomes, on the stream thread. */
    private final class BatchAnswers implements BatchCaller.Answers {

        @Override
        public void answered(String customId, ModelOutcome outcome, long now) {
            completed(customId, outcome, now);
        }

        @Override
        public void unfinished(String customId, long now) {
            ScopeDispatcher.this.unfinished(customId, true, now);
        }

        @Override
        public void requeued(String customId, long now) {
            ScopeDispatcher.this.unfinished(customId, false, now);
        }
    }

    /** The route {@code item} is on here (its own, or the scope's first). */
    RouteSettings routeOf(WorkItem item) {
        return settings.routing().route(item.routed().route()).filter(r -> r.scope().equals(scope))
                .orElse(settings.routing().routesOf(scope).get(0));
    }

    /** Why nothing can be served here now, if so. */
    Optional<FallbackReason> blocked() {
        if (health.halted()) {
            return Optional.of(FallbackReason.HALTED);
        }
        if (health.circuitOpen()) {
            return Optional.of(FallbackReason.CIRCUIT_OPEN);
        }
        // out for the day by its own daily limits, or by the provider's (a 429 about a per-day quota)
        return provider.outForDayUntil().isPresent() ? Optional.of(FallbackReason.OUT_FOR_DAY) : Optional.empty();
    }

    DispatcherSnapshot snapshot(long now) {
        return SnapshotTaker.take(settings, now, ledger.queue(), ledger, provider, health);
    }

    void close() {
        calls.close();
        if (batch != null) {
            batch.close();
        }
        provider.forget();
        if (report.active()) {
            report.released(scope);
        }
    }
}
