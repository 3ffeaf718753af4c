package io.quotaflow.simulator;

import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;

/** The running counters of one served model, from which {@link #snapshot()} makes a {@link ModelStats}. Thread-safe. */
final class ModelCounters {

    private final ModelSpec spec;
    private final Map<Integer, AtomicLong> byStatus = new ConcurrentHashMap<>();
    private final AtomicLong requests = new AtomicLong();
    private final AtomicLong admitted = new AtomicLong();
    private final AtomicLong prompt = new AtomicLong();
    private final AtomicLong completion = new AtomicLong();
    private final AtomicLong tokensAdmitted = new AtomicLong();
    private final AtomicLong contextRefusals = new AtomicLong();
    private final AtomicLong down = new AtomicLong();

    ModelCounters(ModelSpec spec) {
        this.spec = spec;
    }

    /** A request named this model; it was answered {@code status} (0 for a hang: no answer). */
    void answered(int status) {
        requests.incrementAndGet();
        if (status > 0) {
            byStatus.computeIfAbsent(status, s -> new AtomicLong()).incrementAndGet();
        }
    }

    void admitted(long cost, int promptTokens, int completionTokens) {
        admitted.incrementAndGet();
        tokensAdmitted.addAndGet(cost);
        prompt.addAndGet(promptTokens);
        completion.addAndGet(completionTokens);
    }

    void contextRefused() {
        contextRefusals.incrementAndGet();
    }

    void down() {
        down.incrementAndGet();
    }

    void reset() {
        byStatus.clear();
        requests.set(0);
        admitted.set(0);
        prompt.set(0);
        completion.set(0);
        tokensAdmitted.set(0);
        contextRefusals.set(0);
        down.set(0);
    }

    ModelStats snapshot() {
        Map<String, Long> statuses = new TreeMap<>();
        byStatus.forEach((status, n) -> statuses.put(Integer.toString(status), n.get()));
        return new ModelStats(spec.name(), spec.rpm(), spec.tpm(), spec.burstSeconds(), spec.contextTokens(),
                spec.resolvedTokenizer().id(), requests.get(), statuses, statuses.getOrDefault("429", 0L),
                statuses.getOrDefault("400", 0L), admitted.get(), prompt.get(), completion.get(), tokensAdmitted.get(),
                contextRefusals.get(), down.get());
    }
}
