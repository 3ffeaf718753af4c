package io.quotaflow.simulator;

import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.Random;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.LongSupplier;

/**
 * One model as the simulator serves it: its spec, its tokenizer and answer builder, the keys it
 * accepts, each key's buckets, its counters, and whether it is down
 * ({@link ProviderSimulator#setDown(String, int)}).
 */
final class ServedModel {

    private final ModelSpec spec;
    private final double startLevel;
    private final LongSupplier nanoClock;
    private final SimTokenizer.Counter tokenCounter;
    private final AnswerBuilder answers;
    private final Authenticator authenticator;
    private final ModelCounters counters;
    private final Map<String, KeyLimiter> limiters = new ConcurrentHashMap<>();
    /** The status answered while down, 0 while up. */
    private volatile int downStatus;

    /**
     * @param simulatorKeys the keys accepted when the spec names none of its own
     * @param random        the simulator's seeded source (dropped items of a missing-item fault)
     */
    ServedModel(ModelSpec spec, SimulatorConfig config, LongSupplier nanoClock, ModelCounters counters, Random random) {
        this.spec = spec;
        this.startLevel = config.startLevel();
        this.nanoClock = nanoClock;
        this.tokenCounter = spec.tokenizer().counter(spec.name());
        this.answers = new AnswerBuilder(tokenCounter, config.classify(), random);
        this.authenticator = new Authenticator(spec.apiKeys().isEmpty() ? config.apiKeys() : spec.apiKeys());
        this.counters = counters;
    }

    ModelSpec spec() {
        return spec;
    }

    SimTokenizer.Counter tokenCounter() {
        return tokenCounter;
    }

    AnswerBuilder answers() {
        return answers;
    }

    ModelCounters counters() {
        return counters;
    }

    /** The key of an {@code Authorization} header value if this model accepts it. */
    Optional<String> authenticate(String authorization) {
        return authenticator.authenticate(authorization);
    }

    /** The buckets of {@code key} on this model, made (at the start level) on its first request. */
    KeyLimiter limiter(String key) {
        return limiters.computeIfAbsent(key, k -> new KeyLimiter(spec, startLevel, nanoClock));
    }

    /** Forgets every key: their buckets start afresh on their next request. */
    void forgetKeys() {
        limiters.clear();
    }

    /** Takes the model down, answering {@code status} to every request for it, or brings it back with 0. */
    void setDown(int status) {
        this.downStatus = status;
    }

    /** The status answered while down, or empty while up. */
    OptionalInt down() {
        int status = downStatus;
        return status == 0 ? OptionalInt.empty() : OptionalInt.of(status);
    }
}
