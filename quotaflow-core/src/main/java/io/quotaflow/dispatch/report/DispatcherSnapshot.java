package io.quotaflow.dispatch.report;

import io.quotaflow.quota.QuotaLevel;
import io.quotaflow.records.Priority;

import java.util.Map;

/**
 * The dispatcher's state after a punctuation, for {@code /status} and progress lines.
 *
 * @param pending           tickets waiting per priority
 * @param oldestAgeMs       age of the oldest waiting ticket per priority (absent when none)
 * @param delayed           retries held until their not-before time
 * @param inFlightCalls     calls outstanding
 * @param availableTokens   local TPM bucket level
 * @param availableRequests local RPM bucket level
 * @param cooldownMs        remaining cooldown, 0 when none
 * @param estimatedWaitMs   time until the next call could be admitted
 * @param estimateRatio     the provider's prompt count over the local estimate, as applied to estimates
 * @param contextTokens     the context window in force (configured, or learned from the provider)
 * @param inFlightLimit     calls this scope may have outstanding now
 * @param tokenCapacity     the local TPM bucket's capacity (grows to what the provider was seen to hold)
 * @param limits            every limit the route sets, by dimension label ({@code requests}, {@code tokens},
 *                          {@code input-tokens}, {@code output-tokens}, {@code requests-per-day},
 *                          {@code tokens-per-day}): the limit and what is available of it now
 * @param outForDayUntil    when the route's daily budget is spent: the next reset (ISO-8601 instant, UTC); else null
 * @param tenants           per tenant with work or recent admissions: depth, share of the last minute's tokens, cap;
 *                          the {@link TenantState#MAX_TENANTS} deepest by name, the rest summed as {@link TenantState#OTHER}
 * @param spilled           of {@code pending}, the tickets per priority beyond {@code queue.max-pending}, waiting on disk
 *                          (docs/design.md, "Bounds")
 * @param engine            when the route looks like a self-hosted engine it was not configured as (no rate-limit
 *                          headers, latency rising with calls in flight): why, and how to configure it; else null
 */
public record DispatcherSnapshot(String scope, long at, Map<Priority, Integer> pending, Map<Priority, Long> oldestAgeMs,
                                 int delayed, int inFlightCalls, double availableTokens, double availableRequests,
                                 long cooldownMs, long estimatedWaitMs, String state, double estimateRatio,
                                 long contextTokens, int inFlightLimit, double tokenCapacity, Map<String, QuotaLevel> limits,
                                 String outForDayUntil, Map<String, TenantState> tenants, Map<Priority, Integer> spilled,
                                 String engine) {

    public DispatcherSnapshot {
        limits = limits == null ? Map.of() : java.util.Collections.unmodifiableMap(new java.util.LinkedHashMap<>(limits));
        tenants = tenants == null ? Map.of() : java.util.Collections.unmodifiableMap(new java.util.TreeMap<>(tenants));
        spilled = spilled == null || spilled.isEmpty() ? Map.of() : java.util.Collections.unmodifiableMap(new java.util.EnumMap<>(spilled));
    }

    /** A snapshot with nothing spilled, of a route that does not look like an engine it was not configured as. */
    public DispatcherSnapshot(String scope, long at, Map<Priority, Integer> pending, Map<Priority, Long> oldestAgeMs,
                              int delayed, int inFlightCalls, double availableTokens, double availableRequests,
                              long cooldownMs, long estimatedWaitMs, String state, double estimateRatio,
                              long contextTokens, int inFlightLimit, double tokenCapacity, Map<String, QuotaLevel> limits,
                              String outForDayUntil, Map<String, TenantState> tenants) {
        this(scope, at, pending, oldestAgeMs, delayed, inFlightCalls, availableTokens, availableRequests, cooldownMs,
                estimatedWaitMs, state, estimateRatio, contextTokens, inFlightLimit, tokenCapacity, limits, outForDayUntil, tenants,
                Map.of(), null);
    }

    /** A snapshot without the per-tenant view. */
    public DispatcherSnapshot(String scope, long at, Map<Priority, Integer> pending, Map<Priority, Long> oldestAgeMs,
                              int delayed, int inFlightCalls, double availableTokens, double availableRequests,
                              long cooldownMs, long estimatedWaitMs, String state, double estimateRatio,
                              long contextTokens, int inFlightLimit, double tokenCapacity, Map<String, QuotaLevel> limits,
                              String outForDayUntil) {
        this(scope, at, pending, oldestAgeMs, delayed, inFlightCalls, availableTokens, availableRequests, cooldownMs,
                estimatedWaitMs, state, estimateRatio, contextTokens, inFlightLimit, tokenCapacity, limits, outForDayUntil, Map.of());
    }

    /** A snapshot without the per-dimension limits (RPM and TPM only, never out for the day). */
    public DispatcherSnapshot(String scope, long at, Map<Priority, Integer> pending, Map<Priority, Long> oldestAgeMs,
                              int delayed, int inFlightCalls, double availableTokens, double availableRequests,
                              long cooldownMs, long estimatedWaitMs, String state, double estimateRatio,
                              long contextTokens, int inFlightLimit, double tokenCapacity) {
        this(scope, at, pending, oldestAgeMs, delayed, inFlightCalls, availableTokens, availableRequests, cooldownMs,
                estimatedWaitMs, state, estimateRatio, contextTokens, inFlightLimit, tokenCapacity, Map.of(), null);
    }

    public int pendingTotal() {
        return pending.values().stream().mapToInt(Integer::intValue).sum();
    }
}
