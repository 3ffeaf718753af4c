package io.quotaflow.dispatch.outcome;

import io.quotaflow.records.ResultHeaders;
import org.apache.kafka.streams.processor.api.Record;

import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * When each interactive ticket of a scope reached its dispatcher, until its result is written with that
 * time in {@link ResultHeaders#ARRIVED_AT}: with {@link ResultHeaders#SENT_AT} it tells the hop to the
 * dispatcher from the wait for capacity (docs/benchmark.md, "Where an interactive ticket's time goes").
 * In memory, the most recent {@value #MAX} (oldest forgotten first; a restart forgets them all: those
 * results go without the header). On the stream thread.
 */
public final class Arrivals {

    static final int MAX = 10_000;

    private final Map<String, Long> at = new LinkedHashMap<>() {
        @Override
        protected boolean removeEldestEntry(Map.Entry<String, Long> eldest) {
            return size() > MAX;
        }
    };

    /** Interactive ticket {@code key} reached the dispatcher at {@code now} (a later copy keeps the first time). */
    public void arrived(String key, long now) {
        at.putIfAbsent(key, now);
    }

    /** Stamps the result of ticket {@code key} among {@code records} with its arrival, and forgets it. */
    public void stamp(String key, List<Record<String, Outbound>> records) {
        Long arrived = at.remove(key);
        if (arrived == null) {
            return;
        }
        for (Record<String, Outbound> r : records) {
            if (key.equals(r.key()) && r.value() != null && r.value().target() == Outbound.Target.CLASSIFIED) {
                r.headers().add(ResultHeaders.ARRIVED_AT, Long.toString(arrived).getBytes(StandardCharsets.US_ASCII));
            }
        }
    }

    /** Forgets ticket {@code key} (it ended without a result of a call: a dead letter, a cancel, a move). */
    public void forget(String key) {
        at.remove(key);
    }

    public boolean isEmpty() {
        return at.isEmpty();
    }
}
