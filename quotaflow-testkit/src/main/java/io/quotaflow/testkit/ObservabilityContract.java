package io.quotaflow.testkit;

import java.util.List;
import java.util.Set;

/**
 * The families of the observability contract (docs/design.md, Observability), written out here as
 * the contract states them, independently of the code that registers them.
 */
public final class ObservabilityContract {

    /** A family: its exposed name (counters with {@code _total}, as in its HELP and TYPE lines), type and label names. */
    public record Family(String name, String type, Set<String> labels) {

        /** The name of the samples that carry the labels (a histogram's {@code _count}). */
        public String sampleName() {
            return type.equals("histogram") ? name + "_count" : name;
        }
    }

    public static final List<Family> FAMILIES = List.of(
            new Family("quotaflow_queue_depth", "gauge", Set.of("route", "priority")),
            new Family("quotaflow_queue_oldest_age_seconds", "gauge", Set.of("route", "priority")),
            new Family("quotaflow_ticket_wait_seconds", "histogram", Set.of("route", "priority")),
            new Family("quotaflow_ticket_latency_seconds", "histogram", Set.of("route", "priority")),
            new Family("quotaflow_calls_total", "counter", Set.of("route", "outcome")),
            new Family("quotaflow_rate_limited_total", "counter", Set.of("route", "cause")),
            new Family("quotaflow_retries_total", "counter", Set.of("route", "kind")),
            new Family("quotaflow_dead_letters_total", "counter", Set.of("kind")),
            new Family("quotaflow_tokens_total", "counter", Set.of("route", "kind")),
            new Family("quotaflow_quota_limit", "gauge", Set.of("route", "dimension")),
            new Family("quotaflow_quota_available", "gauge", Set.of("route", "dimension")),
            new Family("quotaflow_quota_utilization_ratio", "gauge", Set.of("route", "dimension")),
            new Family("quotaflow_circuit_state", "gauge", Set.of("route")),
            new Family("quotaflow_route_halted", "gauge", Set.of("route")),
            new Family("quotaflow_fallbacks_total", "counter", Set.of("from", "to", "reason")),
            new Family("quotaflow_cache_hits_total", "counter", Set.of("route")),
            new Family("quotaflow_cache_misses_total", "counter", Set.of("route")),
            new Family("quotaflow_tickets_cancelled_total", "counter", Set.of()),
            new Family("quotaflow_cost_usd_total", "counter", Set.of("route")),
            new Family("quotaflow_estimate_ratio", "gauge", Set.of("route")));

    /** Causes of {@code quotaflow_rate_limited_total}. */
    public static final List<String> RATE_LIMIT_CAUSES = List.of("tpm", "rpm", "concurrency", "quota-exhausted", "unknown");

    /** Kinds of {@code quotaflow_tokens_total}. */
    public static final List<String> TOKEN_KINDS = List.of("estimated", "admitted", "prompt", "completion");

    private ObservabilityContract() {
    }
}
