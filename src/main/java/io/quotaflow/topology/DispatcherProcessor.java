package io.quotaflow.topology;

import io.quotaflow.quota.RateLimitInfo;

import io.quotaflow.config.DispatcherSettings;

import io.quotaflow.failure.Backoff;
import io.quotaflow.failure.ErrorKind;
import io.quotaflow.failure.ScopeHealth;
import io.quotaflow.quota.CompletionBudget;
import io.quotaflow.config.QuotaSettings;
import io.quotaflow.quota.ContextWindow;
import io.quotaflow.quota.CostCalibration;
import io.quotaflow.quota.InFlightLimit;
import io.quotaflow.quota.RateLimitHeaders;
import io.quotaflow.model.ModelClient;
import io.quotaflow.model.ModelItem;
import io.quotaflow.model.ModelOutcome;
import io.quotaflow.model.ChatPrompt;
import io.quotaflow.model.ModelRequest;
import io.quotaflow.model.PromptBuilder;
import io.quotaflow.quota.QuotaLimiter;
import io.quotaflow.ticket.Classification;
import io.quotaflow.ticket.Json;
import io.quotaflow.ticket.Priority;
import io.quotaflow.ticket.WorkItem;
import org.apache.kafka.streams.processor.Cancellable;
import org.apache.kafka.streams.processor.PunctuationType;
import org.apache.kafka.streams.processor.api.Processor;
import org.apache.kafka.streams.processor.api.ProcessorContext;
import org.apache.kafka.streams.processor.api.Record;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Queue;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.random.RandomGenerator;

/**
 * Owns one quota scope: holds its tickets, batches them highest priority first, admits each call
 * through the {@link QuotaLimiter}, sends it without blocking, and forwards what came back on the
 * next punctuation (only the stream thread may forward).
 *
 * <p>State lives in three changelogged stores, so it commits atomically with the input offsets and
 * the outputs under exactly-once: {@code pending} (ready tickets by id), {@code delayed} (retries
 * held until {@code qf.not-before}) and {@code in-flight} (calls outstanding, by batch id). When a
 * task starts, every in-flight call is put back to pending: the previous owner's answers are lost
 * with it, so those tickets are asked again (it costs tokens, never a duplicate result).
 */
final class DispatcherProcessor implements Processor<String, WorkItem, String, Outbound> {

    static final String PENDING_STORE = "qf-pending";
    static final String DELAYED_STORE = "qf-delayed";
    static final String IN_FLIGHT_STORE = "qf-in-flight";
    static final String RETRYING_STORE = "qf-retrying";

    private static final Logger LOG = LoggerFactory.getLogger(DispatcherProcessor.class);
    private static final long SWEEP_INTERVAL_MS = 1_000;
    /** /status and the gauges need no more than this; every tick would re-propose a batch for nothing. */
    private static final long SNAPSHOT_INTERVAL_MS = 500;

    private final DispatcherSettings settings;
    private final ModelClient client;
    private final RandomGenerator random;
    private final DispatcherListener listener;
    private final String scope;
    private final OutcomePolicy policy;
    private final RecordEmitter emitter;

    private ProcessorContext<String, Outbound> context;
    private DispatchLedger ledger;
    private PendingQueue queue;
    private PromptBuilder prompts;
    private QuotaLimiter limiter;
    private final Queue<Completion> completions = new ConcurrentLinkedQueue<>();
    private Cancellable punctuator;
    private volatile boolean closed;
    private final Set<String> probes = new HashSet<>();
    /**
     * The limiter's admission number and send time of each call out (in memory: a restarted task
     * has no calls out of its own).
     */
    private final Map<String, long[]> admissions = new java.util.HashMap<>();
    /**
     * The limiter's time, in nanoseconds: real time in production, because the Streams context's
     * time is cached per loop iteration and may be hundreds of milliseconds old by the time a call
     * goes out or its answer is read, which would credit the buckets with refill that never
     * happened; the context's time when null (tests drive it).
     */
    private final java.util.function.LongSupplier limiterClock;
    private ScopeHealth health;
    private CompletionBudget budget;
    private final CostCalibration calibration = new CostCalibration();
    private ContextWindow window;
    private InFlightLimit inFlightLimit;
    private long nextSweep;
    private long nextSnapshot;
    /** Whether this task has seen work: tasks of partitions no scope maps to stay silent in /status. */
    private boolean active;

    private record Completion(String batchId, ModelOutcome outcome) {
    }

    DispatcherProcessor(DispatcherSettings settings, ModelClient client, RandomGenerator random, DispatcherListener listener) {
        this(settings, client, random, listener, null);
    }

    DispatcherProcessor(DispatcherSettings settings, ModelClient client, RandomGenerator random, DispatcherListener listener,
                        java.util.function.LongSupplier limiterClock) {
        this.limiterClock = limiterClock;
        this.settings = settings;
        this.client = client;
        this.random = random;
        this.listener = listener;
        this.scope = settings.scope();
        this.policy = new OutcomePolicy(settings.retry());
        this.emitter = new RecordEmitter(scope, settings.model().model(), new Backoff(settings.retry(), random));
    }

    @Override
    public void init(ProcessorContext<String, Outbound> context) {
        this.context = context;
        this.ledger = new DispatchLedger(context.getStateStore(PENDING_STORE), context.getStateStore(DELAYED_STORE),
                context.getStateStore(IN_FLIGHT_STORE), context.getStateStore(RETRYING_STORE));
        this.queue = ledger.queue();
        this.prompts = new PromptBuilder(settings.model());
        long now = context.currentSystemTimeMs();
        this.closed = false;
        this.limiter = new QuotaLimiter(settings.quota(), clock());
        this.health = new ScopeHealth(scope, settings.retry(), (from, to) -> listener.circuitTransition(scope, from, to));
        this.health.at(now);
        this.budget = new CompletionBudget(settings.batch().completionTokensPerItem());
        this.window = new ContextWindow(settings.model().contextTokens());
        this.inFlightLimit = new InFlightLimit(settings.quota().maxInFlight(), settings.quota().maxInFlightCeiling());
        restore();
        this.punctuator = context.schedule(settings.batch().punctuateInterval(), PunctuationType.WALL_CLOCK_TIME, this::punctuate);
    }

    /** Rebuilds the in-memory indexes; in-flight calls of a previous owner are asked again. */
    private void restore() {
        DispatchLedger.Restored r = ledger.restore();
        if (r.any()) {
            active = true;
            LOG.info("scope {}: restored {} pending ({} from {} interrupted calls), {} delayed", scope, r.pending(),
                    r.fromCalls(), r.calls(), r.delayed());
        }
    }

    @Override
    public void process(Record<String, WorkItem> record) {
        WorkItem item = record.value();
        if (item == null) {
            return;
        }
        active = true;
        DispatchLedger.Acceptance acceptance = ledger.accept(item, context.currentSystemTimeMs());
        if (acceptance != DispatchLedger.Acceptance.ACCEPTED) {
            LOG.debug("scope {}: ticket {} {}", scope, item.id(), acceptance);
            listener.republished(scope, acceptance.name().toLowerCase(java.util.Locale.ROOT));
        }
    }

    void punctuate(long now) {
        health.at(now);
        drainCompletions(now);
        ledger.promoteDue(now);
        if (now >= nextSweep) {
            nextSweep = now + SWEEP_INTERVAL_MS;
            expireOld(now);
            health.logHalt(now, false);
        }
        dispatch(now);
        if (active && now >= nextSnapshot) {
            nextSnapshot = now + SNAPSHOT_INTERVAL_MS;
            listener.state(snapshot(now));
        }
    }

    /**
     * Dead-letters tickets past the maximum age: those that already failed at least once, and all
     * of them while the circuit is open (an outage longer than the budget ends in the dead-letter
     * topic, ready for replay). A halted scope dead-letters nothing: a fixed key resumes the work.
     */
    private void expireOld(long now) {
        if (health.halted()) {
            return;
        }
        long maxAge = settings.retry().maxAge().toMillis();
        boolean outage = health.circuitOpen();
        for (WorkItem item : ledger.expire(r -> now - r.enqueuedAt() >= maxAge && (r.attempt() > 0 || outage))) {
            String last = item.failure() == null ? "none (never dispatched: circuit " + health.circuitState() + ")"
                    : item.failure().kind() + ": " + item.failure().message();
            emitDeadLetter(item, ErrorKind.RETRIES_EXHAUSTED.wire(), item.failure() == null ? 0 : item.failure().status(),
                    "older than " + settings.retry().maxAge().toSeconds() + " s after " + item.attempt()
                            + " attempts; last error: " + last, now);
        }
    }

    /** Calls this scope may have out now: fixed, or by Little's law from its limits and latency. */
    private int maxInFlight() {
        QuotaSettings q = settings.quota();
        return inFlightLimit.limit(q.rpm() * q.safetyFactor() / 60.0, q.tpm() * q.safetyFactor() / 60.0);
    }

    private void dispatch(long now) {
        int maxInFlight = maxInFlight();
        while (ledger.callsInFlight() < maxInFlight) {
            ScopeHealth.Mode mode = health.mode(now);
            if (mode == ScopeHealth.Mode.BLOCKED || (mode == ScopeHealth.Mode.PROBE && !probes.isEmpty())) {
                return;
            }
            boolean probe = mode == ScopeHealth.Mode.PROBE;
            int maxItems = probe ? 1 : settings.batch().maxItems();
            Optional<PendingQueue.Proposal> next = queue.propose(maxItems, this::promptTokenCap, settings.limits().maxBatchBytes());
            if (next.isEmpty()) {
                return;
            }
            PendingQueue.Proposal proposal = next.get();
            if (!probe && lingering(proposal, maxItems, now)) {
                return;
            }
            // while the bucket refills (the usual state when a limit binds) stop here, on the estimate:
            // loading, parsing and tokenizing the batch is only worth it when it may go now
            if (limiter.nanosUntilAdmissible(proposal.priority(), estimatedCost(proposal), clock()) > 0) {
                return;
            }
            if (!health.tryStart(now)) {
                return;
            }
            List<WorkItem> items = ledger.load(proposal);
            List<ModelItem> modelItems = new ArrayList<>(items.size());
            int boost = 1;
            for (WorkItem item : items) {
                modelItems.add(modelItem(item));
                boost = Math.max(boost, item.maxTokensBoost());
            }
            if (items.isEmpty()) {
                health.cancelStart();
                ledger.discard(proposal);
                continue;
            }
            int promptTokens = prompts.fixedTokens() + items.stream().mapToInt(WorkItem::tokens).sum();
            ChatPrompt prompt = prompts.build(modelItems, budget.maxTokensFor(items.size(), boost), promptTokens);
            // the provider counts the prompt its own way (calibrated) and max_tokens exactly
            long cost = calibration.apply(prompt.promptTokens()) + prompt.maxTokens();
            if (!window.fits(cost)) {
                health.cancelStart();
                if (items.size() == 1) {
                    // it cannot fit alone: the provider would refuse it, so it is not sent
                    ledger.discard(proposal);
                    emitDeadLetter(items.get(0), ErrorKind.TOO_LARGE.wire(), 0, "needs about " + cost + " tokens with max_tokens; the "
                            + (window.learned() ? "provider's" : "configured") + " context window is " + window.tokens(), now);
                } else {
                    ledger.discard(proposal);
                    ledger.requeue(items.stream().map(i -> i.withBatchCap(Math.max(1, items.size() / 2))).toList());
                }
                continue;
            }
            long sentNanos = clock();
            if (!limiter.tryAcquire(proposal.priority(), cost, sentNanos)) {
                // strict priority: nothing of a lower class may overtake a waiting higher one
                health.cancelStart();
                return;
            }
            String batchId = UUID.randomUUID().toString();
            InFlightBatch batch = InFlightBatch.of(batchId, proposal.priority(), items, now, prompt.promptTokens(), prompt.maxTokens(),
                    cost);
            inFlightLimit.admitted(cost);
            ledger.dispatched(proposal, batch);
            if (probe) {
                probes.add(batchId);
            }
            listener.dispatched(scope, proposal.priority(), items.size(), cost);
            send(new ModelRequest(batchId, prompt));
        }
    }

    /** A batch that is not full may wait for more tickets, up to its class's linger. */
    private boolean lingering(PendingQueue.Proposal proposal, int maxItems, long now) {
        long linger = settings.batch().linger(proposal.priority()).toMillis();
        if (linger <= 0 || proposal.refs().size() >= maxItems
                || proposal.tokens() >= promptTokenCap(proposal.priority()) * 0.8) {
            return false;
        }
        long oldest = proposal.refs().stream().mapToLong(PendingQueue.Ref::enqueuedAt).min().orElse(now);
        return now - oldest < linger;
    }

    /**
     * A proposal's admission cost from the per-ticket estimates, without building its prompt: the
     * fixed prompt, the tickets, the {@code max_tokens} budget, calibrated. Each ticket was counted on
     * its own, so the exact prompt may differ by a token or so per ticket; the margin keeps this a
     * lower bound, so skipping on it never skips a call that could go.
     */
    private long estimatedCost(PendingQueue.Proposal proposal) {
        int n = proposal.refs().size();
        return calibration.apply(prompts.fixedTokens() + proposal.tokens() - 2L * n) + budget.maxTokensFor(n, 1);
    }

    /**
     * Prompt tokens one batch of {@code priority} may hold: the configured cap, lowered so that a
     * full batch (prompt + its {@code max_tokens}) fits the limiter's bucket above that class's
     * reserve. A single larger ticket still goes alone, from a full bucket.
     */
    private int promptTokenCap(Priority priority) {
        long completion = budget.maxTokensFor(settings.batch().maxItems(), 1);
        long room = Math.min(limiter.maxRegularCost(priority), window.tokens()) - completion;
        long fits = calibration.unapply(Math.max(0, room)) - prompts.fixedTokens();
        return (int) Math.max(1, Math.min(settings.batch().maxPromptTokens(), fits));
    }

    private void send(ModelRequest request) {
        try {
            client.classify(request).whenComplete((outcome, error) -> {
                if (closed) {
                    return;
                }
                ModelOutcome result = outcome != null ? outcome : new ModelOutcome.Failed(ModelOutcome.FailureKind.TRANSIENT, 0,
                        "client error: " + (error == null ? "no outcome" : error.getClass().getSimpleName()),
                        Optional.empty(), io.quotaflow.quota.RateLimitInfo.EMPTY, 0);
                completions.add(new Completion(request.batchId(), result));
            });
        } catch (RuntimeException e) {
            completions.add(new Completion(request.batchId(), new ModelOutcome.Failed(ModelOutcome.FailureKind.TRANSIENT, 0,
                    "client error: " + e.getClass().getSimpleName(), Optional.empty(), io.quotaflow.quota.RateLimitInfo.EMPTY, 0)));
        }
    }

    /** The model's view of a ticket: its id, subject and body (validated at intake, so read leniently). */
    private static ModelItem modelItem(WorkItem item) {
        try {
            com.fasterxml.jackson.databind.JsonNode json = Json.MAPPER.readTree(item.original());
            return new ModelItem(item.id(), text(json.get("subject")), text(json.get("body")));
        } catch (IOException e) {
            // validated at intake; unreachable unless the bytes were altered
            return new ModelItem(item.id(), null, new String(item.original(), java.nio.charset.StandardCharsets.UTF_8));
        }
    }

    private static String text(com.fasterxml.jackson.databind.JsonNode node) {
        return node == null || !node.isTextual() ? null : node.asText();
    }

    private void drainCompletions(long now) {
        Completion c;
        while ((c = completions.poll()) != null) {
            Optional<DispatchLedger.Completed> done = ledger.complete(c.batchId());
            probes.remove(c.batchId());
            long[] admission = admissions.remove(c.batchId());
            if (done.isEmpty()) {
                continue;
            }
            InFlightBatch batch = done.get().batch();
            listener.completed(scope, c.outcome(), batch.size());
            if (done.get().superseded() > 0) {
                LOG.debug("scope {}: {} tickets of call {} were updated while it was out; their answers are ignored", scope,
                        done.get().superseded(), c.batchId());
            }
            if (admission != null) {
                // a call of a previous incarnation has no admission here: its timing is unknown, skip it
                if (!c.outcome().rateLimits().isEmpty()) {
                    limiter.reseed(c.outcome().rateLimits(), admission[0], admission[1], clock());
                }
                limiter.answered(admission[0]);
            }
            handle(batch, done.get().items(), c.outcome(), admission == null ? -1 : admission[1], now);
        }
    }

    /** Applies the policy's decision: the limiter, budget and health hear the outcome; each ticket goes its way. */
    private void handle(InFlightBatch batch, List<WorkItem> items, ModelOutcome outcome, long sentNanos, long now) {
        if (items.isEmpty()) {
            return;
        }
        inFlightLimit.answered(outcome.latencyMs());
        OutcomePolicy.Decision decision = policy.decide(batch, items, outcome, now);
        learn(batch, items, outcome, decision, sentNanos);
        switch (decision.health()) {
            case SUCCEEDED -> health.succeeded(now, outcome.latencyMs());
            case FAILED -> health.failed(now, outcome.latencyMs(), decision.reason());
            case RATE_LIMITED -> health.rateLimited(now);
            case HALT -> health.halt(now, decision.reason());
        }
        decision.cooldown().ifPresent(wait -> {
            Duration jitter = Duration.ofMillis(random.nextLong(Math.max(1, Math.min(1000, wait.toMillis() / 4 + 50))));
            limiter.rateLimited(wait.plus(jitter), clock());
            LOG.warn("scope {}: provider answered 429 ({}); all dispatch paused for {} ms, burst allowance now {} %", scope,
                    decision.reason(), wait.plus(jitter).toMillis(), Math.round(limiter.burstScale() * 100));
        });
        List<WorkItem> requeued = new ArrayList<>();
        for (OutcomePolicy.Action action : decision.actions()) {
            if (action instanceof OutcomePolicy.Action.Classify c) {
                classified(c.item(), c.label(), batch, (ModelOutcome.Answered) outcome, now);
            } else if (action instanceof OutcomePolicy.Action.Requeue r) {
                requeued.add(r.item());
            } else if (action instanceof OutcomePolicy.Action.Retry r) {
                retry(r, now);
            } else if (action instanceof OutcomePolicy.Action.DeadLetter d) {
                emitDeadLetter(d.item(), d.kind(), d.status(), d.message(), now);
            }
        }
        ledger.requeue(requeued);
    }

    /** What the scope learns from an outcome about the provider: its count, its window, its limits. */
    private void learn(InFlightBatch batch, List<WorkItem> items, ModelOutcome outcome, OutcomePolicy.Decision decision,
                       long sentNanos) {
        if (outcome instanceof ModelOutcome.Answered answered) {
            if (answered.promptTokens() > 0) {
                calibration.observe(answered.promptTokens(), batch.promptTokens());
            }
            limiter.reconcile(batch.chargedTokens() - batch.maxTokens(), answered.promptTokens(), clock());
            if (decision.budgetSample()) {
                budget.record(items.size(), answered.completionTokens());
            }
        } else if (outcome instanceof ModelOutcome.RateLimited limited) {
            if (RateLimitHeaders.aboutTokens(limited.message())) {
                // "Used X, Requested Y": the provider's own count of this call (prompt + max_tokens)
                limited.requested().ifPresent(requested -> calibration.observe(requested - batch.maxTokens(), batch.promptTokens()));
            }
            if (RateLimitHeaders.aboutConcurrency(limited.message())) {
                inFlightLimit.concurrencyLimited(ledger.callsInFlight() + 1);
            }
        } else if (outcome instanceof ModelOutcome.Failed failed) {
            if (decision.refund() && sentNanos >= 0) {
                // refused before admission: the provider counted nothing (with headers, reseed said so already)
                limiter.refund(batch.chargedTokens(), sentNanos, clock());
            }
            if (decision.learnContextWindow() && window.learn(failed.message())) {
                LOG.info("scope {}: the provider's context window is {} tokens; larger tickets are dead-lettered too-large "
                        + "without a call", scope, window.tokens());
            }
        }
    }

    private void classified(WorkItem item, ModelOutcome.Label label, InFlightBatch batch, ModelOutcome.Answered answered, long now) {
        Classification result = emitter.classification(item, label, batch, answered, now);
        ledger.finish(item);
        context.forward(emitter.classified(result, now));
        listener.classified(scope, item.priority(), result.queuedMs());
    }

    private void retry(OutcomePolicy.Action.Retry r, long now) {
        RecordEmitter.Emitted emitted = emitter.retry(r.item(), r.kind(), r.status(), r.message(), r.hint(), now);
        ledger.retried(emitted.item());
        context.forward(emitted.record());
        listener.retried(scope, r.kind());
    }

    private void emitDeadLetter(WorkItem item, String kind, int status, String message, long now) {
        ledger.finish(item);
        context.forward(emitter.deadLetter(item, kind, status, message, now));
        listener.deadLettered(scope, kind);
    }

    DispatcherSnapshot snapshot(long now) {
        Map<Priority, Integer> sizes = new EnumMap<>(Priority.class);
        Map<Priority, Long> ages = new EnumMap<>(Priority.class);
        for (Priority p : Priority.values()) {
            sizes.put(p, queue.size(p));
            queue.oldest(p).ifPresent(t -> ages.put(p, Math.max(0, now - t)));
        }
        long nowNanos = clock();
        long wait = 0;
        Optional<PendingQueue.Proposal> next = queue.propose(settings.batch().maxItems(), this::promptTokenCap,
                settings.limits().maxBatchBytes());
        if (next.isPresent()) {
            wait = limiter.nanosUntilAdmissible(next.get().priority(), estimatedCost(next.get()), nowNanos) / 1_000_000;
        }
        String state = health.halted() ? "HALTED: " + health.haltReason()
                : health.circuitOpen() ? "CIRCUIT_" + health.circuitState()
                : limiter.inCooldown(nowNanos) ? "COOLDOWN" : "RUNNING";
        return new DispatcherSnapshot(scope, now, sizes, ages, ledger.delayedCount(), ledger.callsInFlight(),
                limiter.availableTokens(nowNanos), limiter.availableRequests(nowNanos),
                limiter.cooldownRemainingNanos(nowNanos) / 1_000_000, Math.max(0, wait), state,
                calibration.factor(), window.tokens(), maxInFlight(), limiter.tokenCapacity());
    }

    /** The limiter's time now (see {@link #limiterClock}). */
    private long clock() {
        return limiterClock != null ? limiterClock.getAsLong() : context.currentSystemTimeMs() * 1_000_000L;
    }

    @Override
    public void close() {
        closed = true;
        if (punctuator != null) {
            punctuator.cancel();
        }
        completions.clear();
        admissions.clear();
    }
}
