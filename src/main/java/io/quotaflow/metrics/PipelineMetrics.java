package io.quotaflow.metrics;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import io.quotaflow.model.ModelOutcome;
import io.quotaflow.ticket.Priority;
import io.quotaflow.topology.DispatcherListener;
import io.quotaflow.topology.DispatcherSnapshot;
import io.quotaflow.topology.StreamErrorHandlers;
import io.quotaflow.topology.StreamErrorListener;
import io.quotaflow.failure.ErrorKind;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Micrometer meters for the dispatcher, and the latest state of every quota scope this instance
 * owns (for {@code /status} and {@code /health}). Scope tags are hashes: no key ever reaches a
 * metric.
 */
public final class PipelineMetrics implements DispatcherListener, StreamErrorListener {

    /** How long a failed stream thread keeps the instance not ready. */
    static final Duration THREAD_FAILURE_NOT_READY = Duration.ofSeconds(60);
    private static final List<String> DEAD_LETTER_KINDS = ErrorKind.deadLetterKinds();


    private final MeterRegistry registry;
    private final Map<String, DispatcherSnapshot> snapshots = new ConcurrentHashMap<>();
    private final Map<String, AtomicLong> gauges = new ConcurrentHashMap<>();
    private final Map<String, java.util.concurrent.atomic.AtomicReference<Double>> ratios = new ConcurrentHashMap<>();
    private final AtomicLong calls = new AtomicLong();
    private final AtomicLong http429 = new AtomicLong();
    private final AtomicLong classified = new AtomicLong();
    private final AtomicLong deadLettered = new AtomicLong();
    private final AtomicLong retried = new AtomicLong();
    private final Map<String, AtomicLong> republished = new ConcurrentHashMap<>();
    private final AtomicLong recordErrors = new AtomicLong();
    private final AtomicLong threadFailures = new AtomicLong();
    private volatile long lastThreadFailureMs = Long.MIN_VALUE;
    private volatile String lastThreadFailure;

    public PipelineMetrics(MeterRegistry registry) {
        this.registry = registry;
        // registered at start, zero-valued, so that alerts see them before the first ticket
        DEAD_LETTER_KINDS.forEach(kind -> deadLetters(kind));
        Counter.builder("quotaflow.stream.thread.failures").description("stream threads that died (each is replaced)")
                .register(registry);
        for (String stage : List.of("deserialization", "processing", "production")) {
            recordErrorCounter(stage);
        }
    }

    private Counter deadLetters(String kind) {
        return Counter.builder("quotaflow.dead.letters").description("records written to the dead-letter topic, by kind")
                .tag("kind", kind).register(registry);
    }

    private Counter recordErrorCounter(String stage) {
        return Counter.builder("quotaflow.stream.record.errors")
                .description("records Kafka Streams could not read, process or write (each dead-lettered as internal-error)")
                .tag("stage", stage).register(registry);
    }

    public MeterRegistry registry() {
        return registry;
    }

    @Override
    public void dispatched(String scope, Priority priority, int items, long admissionCost) {
        calls.incrementAndGet();
        Counter.builder("quotaflow.calls").description("model calls started").tag("scope", scope)
                .tag("priority", priority.wireName()).register(registry).increment();
        Counter.builder("quotaflow.call.items").description("tickets sent in model calls").tag("scope", scope)
                .tag("priority", priority.wireName()).register(registry).increment(items);
        Counter.builder("quotaflow.tokens.reserved").description("tokens reserved at admission (prompt + max_tokens)")
                .tag("scope", scope).register(registry).increment(admissionCost);
    }

    @Override
    public void completed(String scope, ModelOutcome outcome, int items) {
        String result;
        if (outcome instanceof ModelOutcome.Answered a) {
            result = "answered";
            Counter.builder("quotaflow.tokens.prompt").tag("scope", scope).register(registry).increment(a.promptTokens());
            Counter.builder("quotaflow.tokens.completion").tag("scope", scope).register(registry).increment(a.completionTokens());
        } else if (outcome instanceof ModelOutcome.RateLimited) {
            result = "rate-limited";
            http429.incrementAndGet();
        } else {
            result = ((ModelOutcome.Failed) outcome).kind().name().toLowerCase(java.util.Locale.ROOT).replace('_', '-');
        }
        Counter.builder("quotaflow.call.outcomes").tag("scope", scope).tag("outcome", result).register(registry).increment();
        Timer.builder("quotaflow.call.latency").tag("scope", scope).register(registry).record(Duration.ofMillis(outcome.latencyMs()));
    }

    @Override
    public void classified(String scope, Priority priority, long queuedMs) {
        classified.incrementAndGet();
        Counter.builder("quotaflow.tickets.classified").tag("scope", scope).tag("priority", priority.wireName())
                .register(registry).increment();
        Timer.builder("quotaflow.tickets.queued").description("time from intake to dispatch").tag("priority", priority.wireName())
                .register(registry).record(Duration.ofMillis(queuedMs));
    }

    @Override
    public void retried(String scope, String kind) {
        retried.incrementAndGet();
        Counter.builder("quotaflow.tickets.retried").tag("scope", scope).tag("kind", kind).register(registry).increment();
    }

    @Override
    public void deadLettered(String scope, String kind) {
        deadLettered.incrementAndGet();
        Counter.builder("quotaflow.tickets.dead.lettered").tag("scope", scope).tag("kind", kind).register(registry).increment();
        deadLetters(kind).increment();
    }

    @Override
    public void republished(String scope, String outcome) {
        republished.computeIfAbsent(outcome, k -> new AtomicLong()).incrementAndGet();
        Counter.builder("quotaflow.tickets.republished")
                .description("tickets that arrived while a copy was held: replaced (update), identical, superseded (stale retry)")
                .tag("scope", scope).tag("outcome", outcome).register(registry).increment();
    }

    @Override
    public void recordFailed(String stage, String topic, String exception) {
        recordErrors.incrementAndGet();
        deadLettered.incrementAndGet();
        deadLetters(StreamErrorHandlers.INTERNAL_ERROR).increment();
        recordErrorCounter(stage).increment();
    }

    /** A stream thread died (it is replaced): the instance reports not ready for a while. */
    public void streamThreadFailed(Throwable cause, long nowMs) {
        threadFailures.incrementAndGet();
        lastThreadFailureMs = nowMs;
        lastThreadFailure = cause.getClass().getSimpleName();
        registry.counter("quotaflow.stream.thread.failures").increment();
    }

    /** Why the instance is not ready, or null when it is (streams state aside). */
    public String notReadyReason(long nowMs) {
        if (!healthy()) {
            return "a quota scope is halted: the provider refused the credentials or the quota; see /status";
        }
        if (lastThreadFailureMs != Long.MIN_VALUE && nowMs - lastThreadFailureMs < THREAD_FAILURE_NOT_READY.toMillis()) {
            return "a stream thread failed " + (nowMs - lastThreadFailureMs) / 1000 + " s ago (" + lastThreadFailure
                    + "); it was replaced; see the log";
        }
        return null;
    }

    public Map<String, Long> republishedCounts() {
        Map<String, Long> out = new java.util.TreeMap<>();
        republished.forEach((k, v) -> out.put(k, v.get()));
        return out;
    }

    public long recordErrorCount() {
        return recordErrors.get();
    }

    public long threadFailureCount() {
        return threadFailures.get();
    }

    @Override
    public void circuitTransition(String scope, String from, String to) {
        Counter.builder("quotaflow.circuit.transitions").description("circuit breaker state changes").tag("scope", scope)
                .tag("to", to.toLowerCase(java.util.Locale.ROOT)).register(registry).increment();
    }

    @Override
    public void state(DispatcherSnapshot s) {
        snapshots.put(s.scope(), s);
        for (Priority p : Priority.values()) {
            gauge("quotaflow.queue.depth", s.scope(), p).set(s.pending().getOrDefault(p, 0));
            gauge("quotaflow.queue.oldest.age.ms", s.scope(), p).set(s.oldestAgeMs().getOrDefault(p, 0L));
        }
        gauge("quotaflow.in.flight", s.scope(), null).set(s.inFlightCalls());
        gauge("quotaflow.delayed", s.scope(), null).set(s.delayed());
        gauge("quotaflow.quota.tokens.available", s.scope(), null).set((long) s.availableTokens());
        gauge("quotaflow.quota.requests.available", s.scope(), null).set((long) s.availableRequests());
        gauge("quotaflow.cooldown.ms", s.scope(), null).set(s.cooldownMs());
        gauge("quotaflow.halted", s.scope(), null).set(s.state().startsWith("HALTED") ? 1 : 0);
        gauge("quotaflow.in.flight.limit", s.scope(), null).set(s.inFlightLimit());
        gauge("quotaflow.context.tokens", s.scope(), null).set(s.contextTokens());
        ratios.computeIfAbsent(s.scope(), scope -> {
            java.util.concurrent.atomic.AtomicReference<Double> ref = new java.util.concurrent.atomic.AtomicReference<>(1.0);
            Gauge.builder("quotaflow.estimate.ratio", ref, java.util.concurrent.atomic.AtomicReference::get)
                    .description("the provider's prompt-token count over the local estimate, as applied to estimates")
                    .tag("scope", scope).register(registry);
            return ref;
        }).set(s.estimateRatio());
    }

    private AtomicLong gauge(String name, String scope, Priority priority) {
        String id = name + "|" + scope + "|" + (priority == null ? "" : priority.wireName());
        return gauges.computeIfAbsent(id, k -> {
            AtomicLong value = new AtomicLong();
            Gauge.Builder<AtomicLong> b = Gauge.builder(name, value, AtomicLong::get).tag("scope", scope);
            if (priority != null) {
                b.tag("priority", priority.wireName());
            }
            b.register(registry);
            return value;
        });
    }

    public List<DispatcherSnapshot> snapshots() {
        return List.copyOf(snapshots.values());
    }

    /** False while any scope this instance owns is halted. */
    public boolean healthy() {
        return snapshots.values().stream().noneMatch(s -> s.state().startsWith("HALTED"));
    }

    public long calls() {
        return calls.get();
    }

    public long http429() {
        return http429.get();
    }

    public long classifiedCount() {
        return classified.get();
    }

    public long deadLetteredCount() {
        return deadLettered.get();
    }

    public long retriedCount() {
        return retried.get();
    }
}
