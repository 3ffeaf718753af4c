package io.quotaflow.topology;


import io.quotaflow.config.DispatcherSettings;

import io.quotaflow.failure.Backoff;
import io.quotaflow.failure.ErrorKind;
import io.quotaflow.failure.ScopeHealth;
import io.quotaflow.quota.ContextWindow;
import io.quotaflow.model.ModelClient;
import io.quotaflow.model.ModelItem;
import io.quotaflow.model.ModelOutcome;
import io.quotaflow.model.ChatPrompt;
import io.quotaflow.model.ModelRequest;
import io.quotaflow.model.PromptBuilder;
import io.quotaflow.quota.QuotaLimiter;
import io.quotaflow.ticket.Classification;
import io.quotaflow.ticket.Priority;
import io.quotaflow.ticket.WorkItem;
import org.apache.kafka.streams.processor.Cancellable;
import org.apache.kafka.streams.processor.PunctuationType;
import org.apache.kafka.streams.processor.api.Processor;
import org.apache.kafka.streams.processor.api.ProcessorContext;
import org.apache.kafka.streams.processor.api.Record;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

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
    private ProviderModel provider;
    private final Queue<Completion> completions = new ConcurrentLinkedQueue<>();
    private Cancellable punctuator;
    private volatile boolean closed;
    private final Set<String> probes = new HashSet<>();
    /**
     * The limiter's time, in nanoseconds: real time in production, because the Streams context's
     * time is cached per loop iteration and may be hundreds of milliseconds old by the time a call
     * goes out or its answer is read, which would credit the buckets with refill that never
     * happened; the context's time when null (tests drive it).
     */
    private final java.util.function.LongSupplier limiterClock;
    private ScopeHealth health;
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
        long now = context.currentSystemTimeMs();
        this.closed = false;
        this.provider = new ProviderModel(settings, new PromptBuilder(settings.model()), this::clock);
        this.health = new ScopeHealth(scope, settings.retry(), (from, to) -> listener.circuitTransition(scope, from, to));
        this.health.at(now);
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

    private void dispatch(long now) {
        int maxInFlight = provider.maxInFlight();
        while (ledger.callsInFlight() < maxInFlight) {
            ScopeHealth.Mode mode = health.mode(now);
            if (mode == ScopeHealth.Mode.BLOCKED || (mode == ScopeHealth.Mode.PROBE && !probes.isEmpty())) {
                return;
            }
            boolean probe = mode == ScopeHealth.Mode.PROBE;
            int maxItems = probe ? 1 : settings.batch().maxItems();
            Optional<PendingQueue.Proposal> next = queue.propose(maxItems, provider::promptTokenCap, settings.limits().maxBatchBytes());
            if (next.isEmpty()) {
                return;
            }
            PendingQueue.Proposal proposal = next.get();
            if (!probe && lingering(proposal, maxItems, now)) {
                return;
            }
            // while the bucket refills (the usual state when a limit binds) stop here, on the estimate:
            // loading, parsing and tokenizing the batch is only worth it when it may go now
            if (!provider.mayAdmit(proposal.priority(), provider.estimatedCost(proposal))) {
                return;
            }
            if (!health.tryStart(now)) {
                return;
            }
            List<WorkItem> items = ledger.load(proposal);
            if (items.isEmpty()) {
                health.cancelStart();
                ledger.discard(proposal);
                continue;
            }
            ChatPrompt prompt = provider.prompt(items, items.stream().map(ModelItem::ofTicketJson).toList());
            long cost = provider.cost(prompt);
            ContextWindow window = provider.window();
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
            String batchId = UUID.randomUUID().toString();
            if (!provider.admit(batchId, proposal.priority(), cost)) {
                // strict priority: nothing of a lower class may overtake a waiting higher one
                health.cancelStart();
                return;
            }
            InFlightBatch batch = InFlightBatch.of(batchId, proposal.priority(), items, now, prompt.promptTokens(), prompt.maxTokens(),
                    cost);
            ledger.dispatched(proposal, batch);
            if (probe) {
                probes.add(batchId);
            }
            listener.dispatched(scope, proposal.priority(), items.size(), prompt.promptTokens(), cost);
            send(new ModelRequest(batchId, prompt));
        }
    }

    /** A batch that is not full may wait for more tickets, up to its class's linger. */
    private boolean lingering(PendingQueue.Proposal proposal, int maxItems, long now) {
        long linger = settings.batch().linger(proposal.priority()).toMillis();
        if (linger <= 0 || proposal.refs().size() >= maxItems
                || proposal.tokens() >= provider.promptTokenCap(proposal.priority()) * 0.8) {
            return false;
        }
        long oldest = proposal.refs().stream().mapToLong(PendingQueue.Ref::enqueuedAt).min().orElse(now);
        return now - oldest < linger;
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

    private void drainCompletions(long now) {
        Completion c;
        while ((c = completions.poll()) != null) {
            Optional<DispatchLedger.Completed> done = ledger.complete(c.batchId());
            probes.remove(c.batchId());
            long sentNanos = provider.answered(c.batchId(), c.outcome());
            if (done.isEmpty()) {
                continue;
            }
            InFlightBatch batch = done.get().batch();
            listener.completed(scope, c.outcome(), batch.size());
            if (done.get().superseded() > 0) {
                LOG.debug("scope {}: {} tickets of call {} were updated while it was out; their answers are ignored", scope,
                        done.get().superseded(), c.batchId());
            }
            handle(batch, done.get().items(), c.outcome(), sentNanos, now);
        }
    }

    /** Applies the policy's decision: the limiter, budget and health hear the outcome; each ticket goes its way. */
    private void handle(InFlightBatch batch, List<WorkItem> items, ModelOutcome outcome, long sentNanos, long now) {
        if (items.isEmpty()) {
            return;
        }
        OutcomePolicy.Decision decision = policy.decide(batch, items, outcome, now);
        if (provider.learn(batch, items, outcome, decision, sentNanos, ledger.callsInFlight())) {
            LOG.info("scope {}: the provider's context window is {} tokens; larger tickets are dead-lettered too-large "
                    + "without a call", scope, provider.window().tokens());
        }
        switch (decision.health()) {
            case SUCCEEDED -> health.succeeded(now, outcome.latencyMs());
            case FAILED -> health.failed(now, outcome.latencyMs(), decision.reason());
            case RATE_LIMITED -> health.rateLimited(now);
            case HALT -> health.halt(now, decision.reason());
        }
        decision.cooldown().ifPresent(wait -> {
            Duration jitter = Duration.ofMillis(random.nextLong(Math.max(1, Math.min(1000, wait.toMillis() / 4 + 50))));
            provider.rateLimited(wait.plus(jitter));
            LOG.warn("scope {}: provider answered 429 ({}); all dispatch paused for {} ms, burst allowance now {} %", scope,
                    decision.reason(), wait.plus(jitter).toMillis(), Math.round(provider.burstScale() * 100));
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

    private void classified(WorkItem item, ModelOutcome.Label label, InFlightBatch batch, ModelOutcome.Answered answered, long now) {
        Classification result = emitter.classification(item, label, batch, answered, now);
        ledger.finish(item);
        context.forward(emitter.classified(result, now));
        listener.classified(scope, item.priority(), result.queuedMs(), Math.max(0, now - item.enqueuedAt()));
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
        long wait = queue.propose(settings.batch().maxItems(), provider::promptTokenCap, settings.limits().maxBatchBytes())
                .map(next -> provider.waitMs(next.priority(), provider.estimatedCost(next))).orElse(0L);
        ProviderModel.View v = provider.view();
        String state = health.halted() ? "HALTED: " + health.haltReason()
                : health.circuitOpen() ? "CIRCUIT_" + health.circuitState()
                : v.cooldown() ? "COOLDOWN" : "RUNNING";
        return new DispatcherSnapshot(scope, now, sizes, ages, ledger.delayedCount(), ledger.callsInFlight(), v.availableTokens(),
                v.availableRequests(), v.cooldownMs(), Math.max(0, wait), state, v.estimateRatio(), v.contextTokens(),
                v.inFlightLimit(), v.tokenCapacity());
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
        if (provider != null) {
            provider.forget();
        }
        listener.released(scope);
    }
}
