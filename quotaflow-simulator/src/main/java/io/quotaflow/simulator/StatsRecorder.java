package io.quotaflow.simulator;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The simulator's running counters, from which {@link #snapshot()} makes a {@link SimulatorStats}.
 * Thread-safe; the per-second series is keyed by the epoch second of the {@link SimClock}.
 */
final class StatsRecorder {

    /** The per-second series keeps this many seconds (six hours). */
    private static final int MAX_SECONDS_KEPT = 6 * 3600;

    private final SimulatorConfig config;
    private final SimClock clock;
    private final Map<Integer, AtomicLong> byStatus = new ConcurrentHashMap<>();
    private final Map<String, AtomicLong> faultCounts = new ConcurrentHashMap<>();
    private final AtomicLong total = new AtomicLong();
    private final AtomicLong inFlight = new AtomicLong();
    private final AtomicLong admitted = new AtomicLong();
    private final AtomicLong prompt = new AtomicLong();
    private final AtomicLong completion = new AtomicLong();
    private final AtomicLong tokensAdmitted = new AtomicLong();
    private final AtomicLong contextRefusals = new AtomicLong();
    private final AtomicLong contextRefusedTokens = new AtomicLong();
    private final AtomicLong tooLarge = new AtomicLong();
    /** epoch second → {requests, tokensAdmitted, prompt, completion}; guarded by itself. */
    private final TreeMap<Long, long[]> perSecond = new TreeMap<>();
    /** Per served model, in the configuration's order (the default model first). */
    private final Map<String, ModelCounters> models = new LinkedHashMap<>();
    private volatile long startedAtEpochMs;

    StatsRecorder(SimulatorConfig config, SimClock clock) {
        this.config = config;
        this.clock = clock;
        this.startedAtEpochMs = clock.epochMs();
        config.models().forEach(m -> models.put(m.name(), new ModelCounters(m)));
    }

    /** The counters of the served model {@code name}. */
    ModelCounters model(String name) {
        ModelCounters counters = models.get(name);
        if (counters == null) {
            throw new IllegalArgumentException("the simulator does not serve model " + name);
        }
        return counters;
    }

    void arrived() {
        total.incrementAndGet();
    }

    void fault(String kind) {
        faultCounts.computeIfAbsent(kind, k -> new AtomicLong()).incrementAndGet();
    }

    void answered(int status) {
        byStatus.computeIfAbsent(status, s -> new AtomicLong()).incrementAndGet();
    }

    void contextRefused(long requestedTokens) {
        contextRefusals.incrementAndGet();
        contextRefusedTokens.addAndGet(requestedTokens);
    }

    void tooLarge() {
        tooLarge.incrementAndGet();
    }

    void inFlight(int delta) {
        inFlight.addAndGet(delta);
    }

    void admitted(long cost, int promptTokens, int completionTokens) {
        admitted.incrementAndGet();
        tokensAdmitted.addAndGet(cost);
        prompt.addAndGet(promptTokens);
        completion.addAndGet(completionTokens);
        long second = Math.floorDiv(clock.epochMs(), 1000L);
        synchronized (perSecond) {
            long[] s = perSecond.computeIfAbsent(second, k -> new long[4]);
            s[0]++;
            s[1] += cost;
            s[2] += promptTokens;
            s[3] += completionTokens;
            while (perSecond.size() > MAX_SECONDS_KEPT) {
                perSecond.pollFirstEntry();
            }
        }
    }

    void reset() {
        synchronized (perSecond) {
            byStatus.clear();
            faultCounts.clear();
            total.set(0);
            inFlight.set(0);
            admitted.set(0);
            prompt.set(0);
            completion.set(0);
            tokensAdmitted.set(0);
            contextRefusals.set(0);
            contextRefusedTokens.set(0);
            tooLarge.set(0);
            perSecond.clear();
            models.values().forEach(ModelCounters::reset);
            startedAtEpochMs = clock.epochMs();
        }
    }

    private Map<String, ModelStats> perModel() {
        Map<String, ModelStats> out = new LinkedHashMap<>();
        models.forEach((name, counters) -> out.put(name, counters.snapshot()));
        return out;
    }

    SimulatorStats snapshot() {
        synchronized (perSecond) {
            Map<String, Long> statuses = new TreeMap<>();
            byStatus.forEach((status, n) -> statuses.put(Integer.toString(status), n.get()));
            Map<String, Long> injected = new TreeMap<>();
            faultCounts.forEach((kind, n) -> injected.put(kind, n.get()));
            List<SimulatorStats.Second> seconds = new ArrayList<>(perSecond.size());
            perSecond.forEach((second, s) -> seconds.add(new SimulatorStats.Second(second, s[0], s[1], s[2], s[3])));
            return new SimulatorStats(config.model(), config.rpm(), config.tpm(), config.burstSeconds(),
                    startedAtEpochMs, clock.epochMs(), total.get(), Math.max(0, inFlight.get()),
                    statuses, statuses.getOrDefault("429", 0L), admitted.get(), prompt.get(), completion.get(),
                    tokensAdmitted.get(), injected, seconds, config.resolvedTokenizer().id(),
                    config.contextTokens(), config.startLevel(), contextRefusals.get(), contextRefusedTokens.get(),
                    tooLarge.get(), perModel());
        }
    }
}
