package io.quotaflow.bench;

import java.util.ArrayList;
import java.util.List;
import java.util.OptionalLong;

/**
 * What one quota scope's provider admitted over time: its simulator's running counts of admitted
 * requests and tokens, sampled every few tens of milliseconds ({@link FailoverRunner}). An admission
 * is known to have happened between two samples; the later sample's time stands for it, so times
 * read from here are late by at most one sampling interval. Thread-safe.
 */
final class ScopeTimeline {

    /** The counts at {@code epochMs}. */
    record Sample(long epochMs, long requests, long tokens) {
    }

    private final List<Sample> samples = new ArrayList<>();

    /** Appends a sample; samples come in time order. */
    synchronized void add(long epochMs, long requests, long tokens) {
        samples.add(new Sample(epochMs, requests, tokens));
    }

    synchronized List<Sample> samples() {
        return List.copyOf(samples);
    }

    /** When the first admission was seen (the first sample with a request), if any. */
    synchronized OptionalLong firstAdmissionMs() {
        return samples.stream().filter(s -> s.requests() > 0).mapToLong(Sample::epochMs).findFirst();
    }

    /** When the last admission was seen (the first sample that reached the final request count), if any. */
    synchronized OptionalLong lastAdmissionMs() {
        if (samples.isEmpty() || samples.get(samples.size() - 1).requests() == 0) {
            return OptionalLong.empty();
        }
        long last = samples.get(samples.size() - 1).requests();
        return samples.stream().filter(s -> s.requests() == last).mapToLong(Sample::epochMs).findFirst();
    }

    /**
     * When the first admission after {@code afterMs} was seen: the first sample after it whose request
     * count is above the count at {@code afterMs}; empty when there was none.
     */
    synchronized OptionalLong firstAdmissionAfter(long afterMs) {
        long base = requestsAt(afterMs);
        return samples.stream().filter(s -> s.epochMs() > afterMs && s.requests() > base).mapToLong(Sample::epochMs).findFirst();
    }

    /** Requests admitted by {@code epochMs} (as of the last sample at or before it; 0 before the first). */
    synchronized long requestsAt(long epochMs) {
        Sample s = at(epochMs);
        return s == null ? 0 : s.requests();
    }

    /** Tokens admitted by {@code epochMs} (as of the last sample at or before it; 0 before the first). */
    synchronized long tokensAt(long epochMs) {
        Sample s = at(epochMs);
        return s == null ? 0 : s.tokens();
    }

    /** Tokens admitted in {@code (fromMs, toMs]}. */
    synchronized long tokensBetween(long fromMs, long toMs) {
        return toMs <= fromMs ? 0 : tokensAt(toMs) - tokensAt(fromMs);
    }

    private Sample at(long epochMs) {
        Sample found = null;
        for (Sample s : samples) {
            if (s.epochMs() > epochMs) {
                break;
            }
            found = s;
        }
        return found;
    }
}
