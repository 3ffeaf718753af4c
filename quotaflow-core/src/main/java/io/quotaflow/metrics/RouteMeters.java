package io.quotaflow.metrics;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import io.quotaflow.llm.ModelOutcome;
import io.quotaflow.quota.QuotaLevel;
import io.quotaflow.quota.RateLimitCause;
import io.quotaflow.records.Priority;
import io.quotaflow.dispatch.report.DispatcherSnapshot;
import org.apache.kafka.common.utils.Time;

import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.function.ToDoubleFunction;

/**
 * One route's meters of the observability contract (docs/design.md, Observability), all registered
 * when the route is, zero-valued, so that alerts and dashboards see every series before the first
 * ticket. Gauges read the dispatcher's latest snapshot; counters and histograms are fed by the
 * dispatcher's events. Every meter carries the {@code route} label (the route's name, never a key).
 */
final class RouteMeters {

    static final List<String> CALL_OUTCOMES = List.of("answered", "rate-limited", "transient", "timeout", "context-length",
            "halt", "non-retryable", "overloaded");
    static final List<String> TOKEN_KINDS = List.of("estimated", "admitted", "prompt", "completion");
    static final List<String> RETRY_KINDS = List.of("transient", "timeout", "invalid-output");
    static final List<String> DIMENSIONS = List.of("requests", "tokens");
    /** Limits a route may add to RPM and TPM; their gauges read 0 while the route sets none. */
    static final List<String> OPTIONAL_DIMENSIONS = List.of("input-tokens", "output-tokens", "requests-per-day", "tokens-per-day");
    static final List<String> REPUBLISHED = List.of("replaced", "identical", "superseded");
    /** The cost family: {@code quotaflow_cost_usd_total{route}} in Prometheus. */
    static final String COST = "quotaflow.cost.usd";
    static final List<String> CIRCUIT_STATES = List.of("closed", "half_open", "open");

    /** Intake to dispatch and intake to result: from a few milliseconds to an hour-long backlog. */
    private static final Duration[] TICKET_BUCKETS = durations(0.01, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 120, 300, 600,
            1800, 3600);
    /** One model call: from a fast cache-warm answer to a timeout. */
    private static final Duration[] CALL_BUCKETS = durations(0.05, 0.1, 0.25, 0.5, 1, 2, 5, 10, 20, 30, 60, 120);

    private final MeterRegistry registry;
    private final MeteredRoute route;
    private final Time time;
    private final MinuteWindow admittedRequests = new MinuteWindow();
    private final MinuteWindow admittedTokens = new MinuteWindow();
    private volatile DispatcherSnapshot last;
    private volatile int circuit;
    private final Counter cost;
    private final Counter cacheHits;
    private final Counter staleHits;
    private final Counter cacheMisses;

    RouteMeters(MeterRegistry registry, MeteredRoute route, Time time) {
        this.registry = registry;
        this.route = route;
        this.time = time;
        registerGauges();
        for (Priority p : Priority.values()) {
            callsStarted(p);
            callTickets(p);
            classified(p);
            ticketWait(p);
            ticketLatency(p);
            firstTry(p);
            retryWait(p);
        }
        CALL_OUTCOMES.forEach(this::calls);
        for (RateLimitCause cause : RateLimitCause.values()) {
            rateLimited(cause);
        }
        RETRY_KINDS.forEach(this::retries);
        TOKEN_KINDS.forEach(this::tokens);
        REPUBLISHED.forEach(this::republished);
        CIRCUIT_STATES.forEach(this::transitions);
        callLatency();
        cacheHits = counter("quotaflow.cache.hits", "tickets answered without a call of their own (the cache, or an identical "
                + "ticket's call)").register(registry);
        staleHits = counter("quotaflow.cache.stale.hits", "tickets answered from a cached answer past cache.ttl (marked stale) "
                + "while the route could not serve").register(registry);
        cacheMisses = counter("quotaflow.cache.misses", "tickets whose content was not cached and is asked of the model")
                .register(registry);
        cost = counter(COST, "estimated spend in US dollars from usage and the route's configured prices (0 without prices)")
                .register(registry);
    }


    MeteredRoute route() {
        return route;
    }

    private void registerGauges() {
        for (Priority p : Priority.values()) {
            gauge("quotaflow.queue.depth", "tickets waiting to be sent, per priority", s -> s.pending().getOrDefault(p, 0), 0,
                    "priority", p.wireName());
            gauge("quotaflow.queue.oldest.age.seconds", "age of the oldest ticket waiting to be sent, per priority (0 when none)",
                    s -> oldestAgeSeconds(s, p), 0, "priority", p.wireName());
        }
        String limitHelp = "the limit in force, per dimension: requests, tokens, input-tokens, output-tokens per minute "
                + "(as configured, or as learned from the provider: a set limit only lowered); requests-per-day, tokens-per-day "
                + "per day (0: the route sets no such limit)";
        Gauge.builder("quotaflow.quota.limit", () -> limitNow("requests", route.rpm())).description(limitHelp).tags("route", route.name(),
                "dimension", "requests").register(registry);
        Gauge.builder("quotaflow.quota.limit", () -> limitNow("tokens", route.tpm())).description(limitHelp).tags("route", route.name(),
                "dimension", "tokens").register(registry);
        String availableHelp = "what the local bucket holds now, per dimension (per-minute dimensions), or what is left of "
                + "the day's budget (requests-per-day, tokens-per-day)";
        gauge("quotaflow.quota.available", availableHelp, DispatcherSnapshot::availableRequests, 0, "dimension", "requests");
        gauge("quotaflow.quota.available", availableHelp, DispatcherSnapshot::availableTokens, 0, "dimension", "tokens");
        for (String dimension : OPTIONAL_DIMENSIONS) {
            gauge("quotaflow.quota.limit", limitHelp, s -> level(s, dimension, true), 0, "dimension", dimension);
            gauge("quotaflow.quota.available", availableHelp, s -> level(s, dimension, false), 0, "dimension", dimension);
        }
        String utilizationHelp = "admitted over the last minute divided by the limit in force, per dimension (requests, tokens)";
        Gauge.builder("quotaflow.quota.utilization.ratio", () -> ratio(admittedRequests, limitNow("requests", route.rpm()))).description(utilizationHelp)
                .tags("route", route.name(), "dimension", "requests").register(registry);
        Gauge.builder("quotaflow.quota.utilization.ratio", () -> ratio(admittedTokens, limitNow("tokens", route.tpm()))).description(utilizationHelp)
                .tags("route", route.name(), "dimension", "tokens").register(registry);
        Gauge.builder("quotaflow.circuit.state", () -> circuit).description("the route's circuit breaker: 0 closed, 1 half-open, 2 open")
                .tags("route", route.name()).register(registry);
        gauge("quotaflow.route.halted", "1 while the route is halted (key refused, model missing, quota spent), else 0",
                s -> s.state().startsWith("HALTED") ? 1 : 0, 0);
        gauge("quotaflow.estimate.ratio", "the provider's prompt-token count over the local estimate, as applied to estimates",
                DispatcherSnapshot::estimateRatio, 1);
        gauge("quotaflow.in.flight", "model calls outstanding", DispatcherSnapshot::inFlightCalls, 0);
        gauge("quotaflow.in.flight.limit", "model calls the route may have outstanding now", DispatcherSnapshot::inFlightLimit, 0);
        gauge("quotaflow.delayed", "retries held until their backoff is over", DispatcherSnapshot::delayed, 0);
        gauge("quotaflow.cooldown.seconds", "time left in the cooldown after a 429 (0 when none)", s -> s.cooldownMs() / 1000.0, 0);
        gauge("quotaflow.context.tokens", "the context window in force, in tokens (configured, or learned from the provider)",
                DispatcherSnapshot::contextTokens, 0);
    }

    private void gauge(String name, String help, ToDoubleFunction<DispatcherSnapshot> value, double before, String... tags) {
        Gauge.builder(name, () -> {
            DispatcherSnapshot s = last;
            return s == null ? before : value.applyAsDouble(s);
        }).description(help).tags("route", route.name()).tags(tags).register(registry);
    }

    private static double level(DispatcherSnapshot s, String dimension, boolean limit) {
        QuotaLevel level = s.limits().get(dimension);
        if (level == null) {
            return 0;
        }
        return limit ? level.limit() : level.available();
    }

    private double oldestAgeSeconds(DispatcherSnapshot s, Priority p) {
        Long age = s.oldestAgeMs().get(p);
        if (age == null) {
            return 0;
        }
        // the snapshot is up to half a second old; a stuck dispatcher must not freeze the age
        return (age + Math.max(0, time.milliseconds() - s.at())) / 1000.0;
    }

    /**
     * The per-minute limit in force for {@code dimension} as the last snapshot has it (the configured one, or as the
     * provider's headers moved it), else {@code configured}: what admission keeps to, so the limit and utilization agree
     * with it.
     */
    private double limitNow(String dimension, long configured) {
        DispatcherSnapshot s = last;
        QuotaLevel level = s == null ? null : s.limits().get(dimension);
        return level == null ? configured : level.limit();
    }

    private double ratio(MinuteWindow window, double limit) {
        return limit <= 0 ? 0 : window.sum(time.milliseconds()) / limit;
    }

    void dispatched(Priority priority, int items, long estimatedPromptTokens, long admissionCost) {
        callsStarted(priority).increment();
        callTickets(priority).increment(items);
        tokens("estimated").increment(estimatedPromptTokens);
        tokens("admitted").increment(admissionCost);
        long now = time.milliseconds();
        admittedRequests.add(now, 1);
        admittedTokens.add(now, admissionCost);
    }

    void completed(ModelOutcome outcome) {
        calls(outcomeLabel(outcome)).increment();
        callLatency().record(Duration.ofMillis(Math.max(0, outcome.latencyMs())));
        if (outcome instanceof ModelOutcome.Answered a) {
            tokens("prompt").increment(a.promptTokens());
            tokens("completion").increment(a.completionTokens());
            // the provider's usage at the route's prices: what the call really cost
            cost.increment(route.prices().cost(a.promptTokens(), a.completionTokens()));
        } else if (outcome instanceof ModelOutcome.RateLimited r) {
            rateLimited(RateLimitCause.ofRateLimit(r.message(), r.rateLimits())).increment();
        } else if (outcome instanceof ModelOutcome.Failed f && f.status() == 429 && f.kind() == ModelOutcome.FailureKind.HALT) {
            rateLimited(RateLimitCause.QUOTA_EXHAUSTED).increment();
        }
    }

    static String outcomeLabel(ModelOutcome outcome) {
        if (outcome instanceof ModelOutcome.Answered) {
            return "answered";
        }
        if (outcome instanceof ModelOutcome.RateLimited) {
            return "rate-limited";
        }
        return ((ModelOutcome.Failed) outcome).kind().name().toLowerCase(Locale.ROOT).replace('_', '-');
    }

    void classified(Priority priority, long queuedMs, long latencyMs) {
        classified(priority).increment();
        ticketWait(priority).record(Duration.ofMillis(Math.max(0, queuedMs)));
        ticketLatency(priority).record(Duration.ofMillis(Math.max(0, latencyMs)));
    }

    /** A result: counted as first-try when no attempt failed before it; its backoff summed. */
    void answered(Priority priority, boolean firstTry, long retryWaitMs) {
        if (firstTry) {
            firstTry(priority).increment();
        }
        retryWait(priority).increment(Math.max(0, retryWaitMs) / 1000.0);
    }

    /** A ticket answered without a call of its own. */
    void cacheHit() {
        cacheHits.increment();
    }

    /** A ticket answered from a stale answer. */
    void staleHit() {
        staleHits.increment();
    }

    /** A ticket whose content had to be asked. */
    void cacheMiss() {
        cacheMisses.increment();
    }

    void retried(String kind) {
        retries(kind).increment();
    }

    void republishedTicket(String outcome) {
        republished(outcome).increment();
    }

    void circuitTransition(String to) {
        String state = to.toLowerCase(Locale.ROOT);
        transitions(state).increment();
        switch (state) {
            case "open", "forced_open" -> circuit = 2;
            case "half_open" -> circuit = 1;
            default -> circuit = 0;
        }
    }

    void state(DispatcherSnapshot snapshot) {
        last = snapshot;
        String s = snapshot.state();
        if (s.startsWith("CIRCUIT_")) {
            circuit = s.equals("CIRCUIT_HALF_OPEN") ? 1 : 2;
        } else if (!s.startsWith("HALTED")) {
            circuit = 0;
        }
    }

    /** The route's task moved away: its gauges go back to their values before the first snapshot. */
    void released() {
        last = null;
        circuit = 0;
    }

    DispatcherSnapshot last() {
        return last;
    }

    private Counter callsStarted(Priority p) {
        return counter("quotaflow.calls.started", "model calls sent, per priority of their batch").tag("priority", p.wireName())
                .register(registry);
    }

    private Counter callTickets(Priority p) {
        return counter("quotaflow.call.tickets", "tickets sent in model calls, per priority").tag("priority", p.wireName())
                .register(registry);
    }

    private Counter classified(Priority p) {
        return counter("quotaflow.tickets.classified", "results written to tickets.classified, per priority")
                .tag("priority", p.wireName()).register(registry);
    }

    private Counter calls(String outcome) {
        return counter("quotaflow.calls", "model calls that came back, per outcome (answered, rate-limited, transient, timeout, "
                + "context-length, halt, non-retryable, overloaded: an engine's 429 without rate-limit headers, not a quota 429)")
                .tag("outcome", outcome).register(registry);
    }

    private Counter rateLimited(RateLimitCause cause) {
        return counter("quotaflow.rate.limited", "HTTP 429 answers, per cause (tpm, rpm, concurrency, quota-exhausted, unknown)")
                .tag("cause", cause.label()).register(registry);
    }

    private Counter retries(String kind) {
        return counter("quotaflow.retries", "tickets sent to the retry topic, per error kind").tag("kind", kind).register(registry);
    }

    private Counter tokens(String kind) {
        return counter("quotaflow.tokens", "tokens: estimated (local prompt estimate), admitted (charged to the limiter, "
                + "max_tokens included), prompt and completion (the provider's usage)").tag("kind", kind).register(registry);
    }

    private Counter republished(String outcome) {
        return counter("quotaflow.tickets.republished", "tickets that arrived while a copy was held: replaced (update), "
                + "identical, superseded (stale retry)").tag("outcome", outcome).register(registry);
    }

    private Counter transitions(String to) {
        return counter("quotaflow.circuit.transitions", "circuit breaker state changes, per state entered").tag("to", to)
                .register(registry);
    }

    private Counter firstTry(Priority p) {
        return counter("quotaflow.tickets.first.try", "results of tickets whose first attempt answered (no failed attempt before), "
                + "per priority; over quotaflow_tickets_classified_total: the first-try success ratio")
                .tag("priority", p.wireName()).register(registry);
    }

    private Counter retryWait(Priority p) {
        return counter("quotaflow.ticket.retry.wait.seconds", "backoff between attempts of the classified tickets, summed, per priority")
                .tag("priority", p.wireName()).register(registry);
    }

    private Timer ticketWait(Priority p) {
        return timer("quotaflow.ticket.wait", "time a classified ticket waited for capacity: from intake to its result, less its "
                + "backoff between attempts and its time in model calls (queuedMs)", TICKET_BUCKETS)
                .tag("priority", p.wireName()).register(registry);
    }

    private Timer ticketLatency(Priority p) {
        return timer("quotaflow.ticket.latency", "time from intake to the ticket's result", TICKET_BUCKETS)
                .tag("priority", p.wireName()).register(registry);
    }

    private Timer callLatency() {
        return timer("quotaflow.call.latency", "duration of one model call, answered or not", CALL_BUCKETS).register(registry);
    }

    private Counter.Builder counter(String name, String help) {
        return Counter.builder(name).description(help).tag("route", route.name());
    }

    private Timer.Builder timer(String name, String help, Duration[] buckets) {
        return Timer.builder(name).description(help).tag("route", route.name()).serviceLevelObjectives(buckets)
                .publishPercentileHistogram(false);
    }

    private static Duration[] durations(double... seconds) {
        Duration[] out = new Duration[seconds.length];
        for (int i = 0; i < seconds.length; i++) {
            out[i] = Duration.ofNanos(Math.round(seconds[i] * 1e9));
        }
        return out;
    }
}
