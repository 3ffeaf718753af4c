package io.quotaflow.topology;

import io.quotaflow.config.DispatcherSettings;
import io.quotaflow.failure.Backoff;
import io.quotaflow.failure.ErrorKind;
import io.quotaflow.failure.ScopeHealth;
import io.quotaflow.model.ChatPrompt;
import io.quotaflow.model.ModelClient;
import io.quotaflow.model.ModelItem;
import io.quotaflow.model.ModelOutcome;
import io.quotaflow.model.ModelRequest;
import io.quotaflow.model.PromptBuilder;
import io.quotaflow.quota.ContextWindow;
import io.quotaflow.quota.QuotaLimiter;
import io.quotaflow.ticket.WorkItem;
import org.apache.kafka.streams.processor.Cancellable;
import org.apache.kafka.streams.processor.PunctuationType;
import org.apache.kafka.streams.processor.api.Processor;
import org.apache.kafka.streams.processor.api.ProcessorContext;
import org.apache.kafka.streams.processor.api.Record;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import java.util.function.LongSupplier;
import java.util.random.RandomGenerator;

/**
 * Owns one quota scope: holds its tickets, batches them highest priority first, admits each call
 * through the {@link QuotaLimiter}, sends it without blocking, and forwards what came back on the
 * next punctuation (only the stream thread may forward). A thin adapter: the {@link DispatchLedger}
 * owns the stores and queues, the {@link ProviderModel} what is known of the provider, the
 * {@link OutcomePolicy} and {@link OutcomeApplier} what an answer means, the {@link CallSender}
 * the calls in the air (see {@code docs/design.md}, "Dispatcher").
 *
 * <p>State lives in changelogged stores, so it commits atomically with the input offsets and the
 * outputs under exactly-once: {@code pending} (ready tickets by id), {@code delayed} (retries held
 * until {@code qf.not-before}), {@code in-flight} (calls outstanding, by batch id) and
 * {@code retrying}. When a task starts, every in-flight call is put back to pending: the previous
 * owner's answers are lost with it, so those tickets are asked again (it costs tokens, never a
 * duplicate result).
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
    /**
     * The limiter's time, in nanoseconds: real time in production, because the Streams context's
     * time is cached per loop iteration and may be hundreds of milliseconds old by the time a call
     * goes out or its answer is read, which would credit the buckets with refill that never
     * happened; the context's time when null (tests drive it).
     */
    private final LongSupplier limiterClock;
    private final Set<String> probes = new HashSet<>();

    private ProcessorContext<String, Outbound> context;
    private DispatchLedger ledger;
    private PendingQueue queue;
    private ProviderModel provider;
    private ScopeHealth health;
    private OutcomeApplier outcomes;
    private CallSender calls;
    private Cancellable punctuator;
    private long nextSweep;
    private long nextSnapshot;
    /** Whether this task has seen work: tasks of partitions no scope maps to stay silent in /status. */
    private boolean active;

    DispatcherProcessor(DispatcherSettings settings, ModelClient client, RandomGenerator random, DispatcherListener listener) {
        this(settings, client, random, listener, null);
    }

    DispatcherProcessor(DispatcherSettings settings, ModelClient client, RandomGenerator random, DispatcherListener listener,
                        LongSupplier limiterClock) {
        this.settings = settings;
        this.client = client;
        this.random = random;
        this.listener = listener;
        this.scope = settings.scope();
        this.limiterClock = limiterClock;
    }

    @Override
    public void init(ProcessorContext<String, Outbound> context) {
        this.context = context;
        this.ledger = new DispatchLedger(context.getStateStore(PENDING_STORE), context.getStateStore(DELAYED_STORE),
                context.getStateStore(IN_FLIGHT_STORE), context.getStateStore(RETRYING_STORE));
        this.queue = ledger.queue();
        this.provider = new ProviderModel(settings, new PromptBuilder(settings.model()), this::clock);
        this.health = new ScopeHealth(scope, settings.retry(), (from, to) -> listener.circuitTransition(scope, from, to));
        this.health.at(context.currentSystemTimeMs());
        this.outcomes = new OutcomeApplier(scope, settings.retry(), new OutcomePolicy(settings.retry()), provider, health, ledger,
                new RecordEmitter(scope, settings.model().model(), new Backoff(settings.retry(), random)), listener, random,
                context::forward);
        this.calls = new CallSender(client);
        DispatchLedger.Restored r = ledger.restore();
        provider.inherit(r.calls(), r.callTokens());
        if (r.any()) {
            active = true;
            LOG.info("scope {}: restored {} pending ({} from {} interrupted calls), {} delayed", scope, r.pending(),
                    r.fromCalls(), r.calls(), r.delayed());
        }
        this.punctuator = context.schedule(settings.batch().punctuateInterval(), PunctuationType.WALL_CLOCK_TIME, this::punctuate);
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
            listener.republished(scope, acceptance.name().toLowerCase(Locale.ROOT));
        }
    }

    void punctuate(long now) {
        health.at(now);
        calls.drain((batchId, outcome) -> completed(batchId, outcome, now));
        ledger.promoteDue(now);
        if (now >= nextSweep) {
            nextSweep = now + SWEEP_INTERVAL_MS;
            outcomes.expireOld(now);
            health.logHalt(now, false);
        }
        dispatch(now);
        if (active && now >= nextSnapshot) {
            nextSnapshot = now + SNAPSHOT_INTERVAL_MS;
            listener.state(snapshot(now));
        }
    }

    /** Starts calls while the in-flight limit, the health, the batching and the limiter allow. */
    private void dispatch(long now) {
        while (ledger.callsInFlight() < provider.maxInFlight()) {
            ScopeHealth.Mode mode = health.mode(now);
            boolean probe = mode == ScopeHealth.Mode.PROBE;
            if (mode == ScopeHealth.Mode.BLOCKED || (probe && !probes.isEmpty())) {
                return;
            }
            int maxItems = probe ? 1 : settings.batch().maxItems();
            PendingQueue.Proposal proposal = queue.propose(maxItems, provider::promptTokenCap, settings.limits().maxBatchBytes())
                    .filter(p -> mayStart(p, probe, maxItems, now)).orElse(null);
            if (proposal == null) {
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
            if (!provider.window().fits(cost)) {
                health.cancelStart();
                ledger.discard(proposal);
                tooLarge(items, cost, now);
                continue;
            }
            String batchId = UUID.randomUUID().toString();
            if (!provider.admit(batchId, proposal.priority(), cost)) {
                // strict priority: nothing of a lower class may overtake a waiting higher one
                health.cancelStart();
                return;
            }
            ledger.dispatched(proposal, InFlightBatch.of(batchId, proposal.priority(), items, now, prompt.promptTokens(),
                    prompt.maxTokens(), cost));
            if (probe) {
                probes.add(batchId);
            }
            listener.dispatched(scope, proposal.priority(), items.size(), prompt.promptTokens(), cost);
            calls.send(new ModelRequest(batchId, prompt));
        }
    }

    /**
     * Whether {@code proposal} goes now: not lingering for more tickets (a probe never lingers), the
     * limiter would admit it on the estimate, and the health lets a call start. While the bucket
     * refills (the usual state when a limit binds) this stops the loop on the estimate: loading,
     * parsing and pricing the batch is only worth it when it may go now.
     */
    private boolean mayStart(PendingQueue.Proposal proposal, boolean probe, int maxItems, long now) {
        boolean lingers = !probe && proposal.mayLinger(settings.batch().linger(proposal.priority()).toMillis(), maxItems,
                provider.promptTokenCap(proposal.priority()), now);
        return !lingers && provider.mayAdmit(proposal.priority(), provider.estimatedCost(proposal)) && health.tryStart(now);
    }

    /** A batch over the context window: split in half, or, a ticket that cannot fit alone, dead-lettered unsent. */
    private void tooLarge(List<WorkItem> items, long cost, long now) {
        if (items.size() > 1) {
            ledger.requeue(items.stream().map(i -> i.withBatchCap(Math.max(1, items.size() / 2))).toList());
            return;
        }
        ContextWindow window = provider.window();
        outcomes.deadLetter(items.get(0), ErrorKind.TOO_LARGE.wire(), 0, "needs about " + cost + " tokens with max_tokens; the "
                + (window.learned() ? "provider's" : "configured") + " context window is " + window.tokens(), now);
    }

    /** One call's answer, on the stream thread. */
    private void completed(String batchId, ModelOutcome outcome, long now) {
        Optional<DispatchLedger.Completed> done = ledger.complete(batchId);
        probes.remove(batchId);
        long sentNanos = provider.answered(batchId, outcome);
        if (done.isEmpty()) {
            return;
        }
        InFlightBatch batch = done.get().batch();
        listener.completed(scope, outcome, batch.size());
        if (done.get().superseded() > 0) {
            LOG.debug("scope {}: {} tickets of call {} were updated while it was out; their answers are ignored", scope,
                    done.get().superseded(), batchId);
        }
        outcomes.apply(batch, done.get().items(), outcome, sentNanos, now);
    }

    DispatcherSnapshot snapshot(long now) {
        return SnapshotTaker.take(settings, now, queue, ledger, provider, health);
    }

    /** The limiter's time now (see {@link #limiterClock}). */
    private long clock() {
        return limiterClock != null ? limiterClock.getAsLong() : context.currentSystemTimeMs() * 1_000_000L;
    }

    @Override
    public void close() {
        if (punctuator != null) {
            punctuator.cancel();
        }
        if (calls != null) {
            calls.close();
        }
        if (provider != null) {
            provider.forget();
        }
        listener.released(scope);
    }
}
