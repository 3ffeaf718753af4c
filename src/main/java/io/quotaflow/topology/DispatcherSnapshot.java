package io.quotaflow.topology;

import io.quotaflow.ticket.Priority;

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
 */
public record DispatcherSnapshot(String scope, long at, Map<Priority, Integer> pending, Map<Priority, Long> oldestAgeMs,
                                 int delayed, int inFlightCalls, double availableTokens, double availableRequests,
                                 long cooldownMs, long estimatedWaitMs, String state, double estimateRatio,
                                 long contextTokens, int inFlightLimit, double tokenCapacity) {

    public int pendingTotal() {
        return pending.values().stream().mapToInt(Integer::intValue).sum();
    }
}
