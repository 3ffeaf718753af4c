package io.quotaflow.metrics;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.quotaflow.failure.ErrorKind;
import io.quotaflow.llm.ModelOutcome;
import io.quotaflow.status.QueueView;
import io.quotaflow.status.TicketDirectory;
import io.quotaflow.records.Priority;
import io.quotaflow.dispatch.report.DispatcherListener;
import io.quotaflow.dispatch.report.DispatcherSnapshot;
import io.quotaflow.topology.StreamErrorHandlers;
import io.quotaflow.topology.StreamErrorListener;
import org.apache.kafka.common.utils.Time;

import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The dispatcher's meters (docs/design.md, Observability: every family of the contract registered
 * at start-up, zero-valued, with HELP text and base units) and the latest state of every quota
 * scope this instance owns, for {@code /status} and the health checks. Labels carry route names;
 * no key ever reaches a metric.
 */
public final class PipelineMetrics implements DispatcherListener, StreamErrorListener {

    /** Reasons a ticket moves to another route (docs/design.md, Routes), registered at zero. */
    static final List<String> FALLBACK_REASONS = List.of("halted", "circuit-open", "max-wait", "context", "out-for-day", "batch-expired");
    /** The {@code reason} label of {@code quotaflow_handoffs_total} (registered at zero for every route and class). */
    static final List<String> HANDOFF_REASONS = List.of("eta", "unavailable", "passed");
    /** The {@code to} label of the zero-valued fallback series, before any fallback happened. */
    static final String NO_FALLBACK = "none";
    private static final String HALTED = "HALTED";

    private final MeterRegistry registry;
    private final Time time;
    private final Map<String, RouteMeters> routesByScope = new ConcurrentHashMap<>();
    private final List<MeteredRoute> routes;
    private final Map<String, DispatcherSnapshot> snapshots = new ConcurrentHashMap<>();
    private final TicketDirectory tickets = new TicketDirectory();
    private final TenantMeters tenants;
    private final Totals totals = new Totals();
    private final Counter intakeHolds;
    private final Counter cancelledCounter;
    private final Counter cancelRequests;
    private final ThreadFailures threadFailures;
    /** The spans tracing dropped so far (none while traces are off). */
    private volatile java.util.function.LongSupplier spansDropped = () -> 0;

    /** Meters for the given routes, every family registered now; the clock is {@code time}'s wall clock. */
    public PipelineMetrics(MeterRegistry registry, List<MeteredRoute> routes, Time time) {
        this(registry, routes, time, true);
    }

    /**
     * As above; {@code tenantLabels}: the per-tenant families name each tenant ({@code metrics.tenant-labels}),
     * else count every tenant as {@code all}.
     */
    public PipelineMetrics(MeterRegistry registry, List<MeteredRoute> routes, Time time, boolean tenantLabels) {
        this.registry = registry;
        this.time = time;
        this.routes = List.copyOf(routes);
        this.tenants = new TenantMeters(registry, tenantLabels);
        for (MeteredRoute route : this.routes) {
            // every route's families are registered; the dispatcher reports by scope, so a scope's
            // events feed the first route that has it (routes sharing a scope share its calls)
            routesByScope.putIfAbsent(route.scope(), new RouteMeters(registry, route, time));
            for (String reason : FALLBACK_REASONS) {
                fallbacks(route.name(), NO_FALLBACK, reason);
            }
            for (Priority priority : Priority.values()) {
                HANDOFF_REASONS.forEach(reason -> handoffs(route.name(), priority, reason));
            }
        }
        ErrorKind.deadLetterKinds().forEach(this::deadLetters);
        cancelledCounter = Counter.builder("quotaflow.tickets.cancelled").description("tickets cancelled by a tombstone before they were sent")
                .register(registry);
        cancelRequests = Counter.builder("quotaflow.cancel.requests")
                .description("tombstones (cancel requests) read from the input topics, whether or not their ticket was still waiting")
                .register(registry);
        threadFailures = new ThreadFailures(registry);
        io.micrometer.core.instrument.FunctionCounter.builder("quotaflow.trace.spans.dropped", this, m -> m.spansDropped.getAsLong())
                .description("spans not delivered to the trace collector: their export failed, or the SDK's span queue was full")
                .register(registry);
        intakeHolds = Counter.builder("quotaflow.intake.holds")
                .description("times a stream thread held its input topics while its dispatchers caught up (intake.hold-dispatch-lag)")
                .register(registry);
        for (String stage : List.of("deserialization", "processing", "production")) {
            recordErrorCounter(stage);
        }
    }

    /** Meters for one route, on the real clock. */
    public PipelineMetrics(MeterRegistry registry, MeteredRoute route) {
        this(registry, List.of(route), Time.SYSTEM);
    }

    /** The clock these meters read, which the status endpoints read too. */
    public Time time() {
        return time;
    }

    private Counter deadLetters(String kind) {
        return Counter.builder("quotaflow.dead.letters").description("records written to the dead-letter topic, by kind")
                .tag("kind", kind).register(registry);
    }

    private Counter fallbacks(String from, String to, String reason) {
        return Counter.builder("quotaflow.fallbacks")
                .description("tickets moved to another route, by reason (to=\"none\": the zero series before any move)")
                .tags("from", from, "to", to, "reason", reason).register(registry);
    }

    private Counter recordErrorCounter(String stage) {
        return Counter.builder("quotaflow.stream.record.errors")
                .description("records Kafka Streams could not read, process or write (each dead-lettered as internal-error)")
                .tag("stage", stage).register(registry);
    }

    public MeterRegistry registry() {
        return registry;
    }

    /**
     * The route a scope belongs to. With one route every scope is that route's; a scope no route
     * names (only in tests with several scopes) gets meters of its own, named by its hash.
     */
    private RouteMeters route(String scope) {
        return routesByScope.computeIfAbsent(scope, s -> {
            MeteredRoute only = routes.get(0);
            return routes.size() == 1
                    ? new RouteMeters(registry, new MeteredRoute(only.name(), s, only.rpm(), only.tpm(), only.prices()), time)
                    : new RouteMeters(registry, new MeteredRoute(s, s, 0, 0), time);
        });
    }

    /** Dollars spent so far over every route ({@code quotaflow_cost_usd_total}); 0 without prices. */
    public double costUsd() {
        return registry.find(RouteMeters.COST).counters().stream().mapToDouble(Counter::count).sum();
    }

    /** Whether any route has prices configured (so that {@link #costUsd()} means something). */
    public boolean pricesConfigured() {
        return routes.stream().anyMatch(r -> r.prices().configured());
    }

    @Override
    public void dispatched(String scope, Priority priority, int items, long estimatedPromptTokens, long admissionCost) {
        totals.calls.incrementAndGet();
        route(scope).dispatched(priority, items, estimatedPromptTokens, admissionCost);
    }

    @Override
    public void completed(String scope, ModelOutcome outcome, int items) {
        if (outcome instanceof ModelOutcome.RateLimited) {
            totals.http429.incrementAndGet();
        }
        route(scope).completed(outcome);
    }

    @Override
    public void classified(String scope, Priority priority, long queuedMs, long latencyMs) {
        totals.classified.incrementAndGet();
        route(scope).classified(priority, queuedMs, latencyMs);
    }

    @Override
    public void answered(String scope, Priority priority, boolean firstTry, long retryWaitMs) {
        route(scope).answered(priority, firstTry, retryWaitMs);
    }

    @Override
    public void retried(String scope, String kind) {
        totals.retried.incrementAndGet();
        route(scope).retried(kind);
    }

    @Override
    public void deadLettered(String scope, String kind) {
        totals.deadLettered.incrementAndGet();
        deadLetters(kind).increment();
    }

    @Override
    public void republished(String scope, String outcome) {
        totals.republished.computeIfAbsent(outcome, k -> new AtomicLong()).incrementAndGet();
        route(scope).republishedTicket(outcome);
    }

    @Override
    public void recordFailed(String stage, String topic, String exception) {
        totals.recordErrors.incrementAndGet();
        totals.deadLettered.incrementAndGet();
        deadLetters(StreamErrorHandlers.INTERNAL_ERROR).increment();
        recordErrorCounter(stage).increment();
    }

    /** A stream thread held its input topics while its dispatchers caught up (a stream thread's call). */
    public void intakeHeld() {
        intakeHolds.increment();
    }

    /** How many times a stream thread held its input topics. */
    public long intakeHoldCount() {
        return (long) intakeHolds.count();
    }

    /** A stream thread died (it is replaced): the instance reports not ready for a while. */
    public void streamThreadFailed(Throwable cause, long nowMs) {
        threadFailures.failed(cause, nowMs);
    }

    /** Why the instance is not live although its streams run, or null: see {@link ThreadFailures#notLiveReason}. */
    public String notLiveReason(long nowMs) {
        return threadFailures.notLiveReason(nowMs);
    }

    /** Why the instance is not ready apart from halted routes and the streams' state, or null. */
    public String notReadyReason(long nowMs) {
        return threadFailures.notReadyReason(nowMs);
    }

    /** Each halted route this instance owns, with why (the provider's refusal, redacted). */
    public Map<String, String> haltedRoutes() {
        Map<String, String> out = new TreeMap<>();
        routesByScope.values().forEach(r -> {
            DispatcherSnapshot s = r.last();
            if (s != null && s.state().startsWith(HALTED)) {
                out.put(r.route().name(), s.state().substring(HALTED.length()).replaceFirst("^:\\s*", ""));
            }
        });
        return out;
    }

    @Override
    public void tenantAdmitted(String scope, String tenant, long tokens) {
        this.tenants.admitted(tenant, tokens);
    }

    /** Estimated tokens admitted so far for {@code tenant} ({@code quotaflow_tenant_tokens_total}). */
    public double tenantTokens(String tenant) {
        return tenants.tokens(tenant);
    }

    public Map<String, Long> republishedCounts() {
        Map<String, Long> out = new TreeMap<>();
        totals.republished.forEach((k, v) -> out.put(k, v.get()));
        return out;
    }

    public long recordErrorCount() {
        return totals.recordErrors.get();
    }

    public long threadFailureCount() {
        return threadFailures.count();
    }

    @Override
    public void circuitTransition(String scope, String from, String to) {
        route(scope).circuitTransition(to);
    }

    @Override
    public void state(DispatcherSnapshot s) {
        snapshots.put(s.scope(), s);
        route(s.scope()).state(s);
        tenants.state(s);
    }

    @Override
    public void cancelRequested() {
        cancelRequests.increment();
    }

    @Override
    public void cancelled(String scope, String id) {
        cancelledCounter.increment();
    }

    /** Tickets cancelled before they were sent. */
    public long cancelledCount() {
        return (long) cancelledCounter.count();
    }

    @Override
    public void cacheHit(String scope) {
        route(scope).cacheHit();
    }

    @Override
    public void staleCacheHit(String scope) {
        route(scope).staleHit();
    }

    @Override
    public void cacheMiss(String scope) {
        route(scope).cacheMiss();
    }

    @Override
    public void handedOff(String scope, String route, Priority priority, String reason) {
        handoffs(route, priority, reason).increment();
    }

    private Counter handoffs(String route, Priority priority, String reason) {
        return Counter.builder("quotaflow.handoffs").description("tickets handed to people on tickets.handoff before their deadline, by reason")
                .tags("route", route, "priority", priority.wireName(), "reason", reason).register(registry);
    }

    @Override
    public void fellBack(String from, String to, String reason) {
        fallbacks(from, to, reason).increment();
    }

    @Override
    public void queue(QueueView view) {
        tickets.publish(view);
    }

    /** The live queues of the scopes this instance owns (for {@code GET /tickets/{id}}). */
    public TicketDirectory tickets() {
        return tickets;
    }

    @Override
    public void released(String scope) {
        snapshots.remove(scope);
        tickets.release(scope);
        tenants.released(scope);
        RouteMeters route = routesByScope.get(scope);
        if (route != null) {
            route.released();
        }
    }

    public List<DispatcherSnapshot> snapshots() {
        return List.copyOf(snapshots.values());
    }

    /** False while any scope this instance owns is halted. */
    public boolean healthy() {
        return snapshots.values().stream().noneMatch(s -> s.state().startsWith(HALTED));
    }

    public long calls() {
        return totals.calls.get();
    }

    public long http429() {
        return totals.http429.get();
    }

    /** Where {@code quotaflow_trace_spans_dropped_total} reads the spans tracing dropped. */
    public void spansDropped(java.util.function.LongSupplier dropped) {
        this.spansDropped = dropped;
    }

    public long classifiedCount() {
        return totals.classified.get();
    }

    public long deadLetteredCount() {
        return totals.deadLettered.get();
    }

    public long retriedCount() {
        return totals.retried.get();
    }

    /** The instance's totals since start, for {@code /status}. */
    private static final class Totals {
        private final AtomicLong calls = new AtomicLong();
        private final AtomicLong http429 = new AtomicLong();
        private final AtomicLong classified = new AtomicLong();
        private final AtomicLong deadLettered = new AtomicLong();
        private final AtomicLong retried = new AtomicLong();
        private final Map<String, AtomicLong> republished = new ConcurrentHashMap<>();
        private final AtomicLong recordErrors = new AtomicLong();
    }
}
