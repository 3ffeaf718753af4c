package io.quotaflow.simulator;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;

/**
 * Configuration of the {@link ProviderSimulator}. Immutable; build with {@link #builder()} or take
 * {@link #ofDefaults()}. The canonical constructor validates every field, so an instance is always
 * usable.
 *
 * @param port                 TCP port to listen on; 0 picks a free port
 * @param bindAddress          address to listen on; the loopback address by default
 * @param rpm                  requests per minute allowed per API key on the default model
 * @param tpm                  tokens per minute allowed per API key on the default model (prompt estimate + max_tokens)
 * @param burstSeconds         seconds of refill each bucket holds: capacity = limit × burstSeconds / 60;
 *                             60 holds a full minute
 * @param apiKeys              accepted bearer keys (of every model without keys of its own); empty = accept any
 *                             non-empty key
 * @param model                the default model served (requests naming a model not served get 404
 *                             model_not_found)
 * @param baseLatencyMs        latency of every successful answer before the per-token part
 * @param perCompletionTokenMs extra latency per completion token
 * @param latencyJitter        relative jitter of the latency, 0..1 (0.2 = ±20 %)
 * @param seed                 seed of the random source (latency jitter and fault draws)
 * @param defaultMaxTokens     max_tokens assumed when a request gives neither max_tokens nor
 *                             max_completion_tokens
 * @param faults               fault injection; all off by default
 * @param tokenizer            how the simulator counts tokens (its {@code usage.prompt_tokens}, bucket
 *                             debits, 429 "Requested" numbers and context check); {@link SimTokenizer#AUTO}
 *                             (the default) is the model's OpenAI encoding, the others may disagree with
 *                             the client on purpose
 * @param contextTokens        the model's context window: a request whose prompt tokens + max_tokens exceed
 *                             it is refused with 400 {@code context_length_exceeded} before admission;
 *                             default {@value #DEFAULT_CONTEXT_TOKENS} (gpt-4o-mini)
 * @param startLevel           level each bucket of a new key starts at, as a fraction of its capacity in
 *                             [0, 1]; 1 (the default) = full, as real providers start an idle key
 * @param classify             whether answers come from the keyword classifier (the default); false answers
 *                             every ticket with the first category and urgency, a model that costs nothing,
 *                             for measuring the pipeline's own overhead
 * @param extraModels          models served besides {@link #model()}, each with its own limits, window,
 *                             tokenizer and optionally keys; names distinct from each other and from
 *                             {@link #model()}; none by default. The single-model fields above describe the
 *                             default model ({@link #defaultModel()}); latency, seed, faults, startLevel and
 *                             classify apply to every model
 * @param headersAt            when a 200's rate-limit headers are taken: at admission (the default, as real
 *                             providers do; the answer carries them after the latency) or when the answer is sent
 * @param dialect              the provider dialect spoken ({@link SimDialect}: paths, key header, rate-limit headers,
 *                             error bodies); OpenAI's by default
 * @param engine               empty (the default): a rate-limited provider; present: a self-hosted engine
 *                             ({@link EngineMode}) with no rate limits and no rate-limit headers, whose latency
 *                             grows beyond its saturation and which refuses beyond its most running calls
 * @param chargesMaxTokens     whether the token bucket is debited the prompt plus {@code max_tokens} (true, the
 *                             default, as OpenAI does) or the prompt only (a provider whose token limit counts
 *                             input tokens): a client charging {@code max_tokens} then admits fewer than the
 *                             provider would by its own model, and learns the difference from the headers
 */
public record SimulatorConfig(
        int port,
        String bindAddress,
        long rpm,
        long tpm,
        double burstSeconds,
        Set<String> apiKeys,
        String model,
        long baseLatencyMs,
        double perCompletionTokenMs,
        double latencyJitter,
        long seed,
        int defaultMaxTokens,
        Faults faults,
        SimTokenizer tokenizer,
        int contextTokens,
        double startLevel,
        boolean classify,
        List<ModelSpec> extraModels,
        HeaderMoment headersAt,
        SimDialect dialect,
        Optional<EngineMode> engine,
        boolean chargesMaxTokens) {

    public static final int DEFAULT_PORT = 8089;
    public static final String DEFAULT_BIND_ADDRESS = "127.0.0.1";
    public static final long DEFAULT_RPM = 500;
    public static final long DEFAULT_TPM = 200_000;
    public static final double DEFAULT_BURST_SECONDS = 5;
    public static final String DEFAULT_MODEL = "gpt-4o-mini";
    public static final long DEFAULT_BASE_LATENCY_MS = 150;
    public static final double DEFAULT_PER_COMPLETION_TOKEN_MS = 2;
    public static final double DEFAULT_LATENCY_JITTER = 0.2;
    public static final long DEFAULT_SEED = 42;
    public static final int DEFAULT_MAX_TOKENS = 4096;
    public static final SimTokenizer DEFAULT_TOKENIZER = SimTokenizer.AUTO;
    /** gpt-4o-mini's context window. */
    public static final int DEFAULT_CONTEXT_TOKENS = 128_000;
    /** Buckets start full, as a real provider's do for an idle key. */
    public static final double DEFAULT_START_LEVEL = 1.0;

    public SimulatorConfig {
        ConfigChecks.require(port >= 0 && port <= 65_535, "port must be 0..65535: " + port);
        ConfigChecks.notBlank(bindAddress, "bindAddress");
        ConfigChecks.require(rpm > 0, "rpm must be > 0: " + rpm);
        ConfigChecks.require(tpm > 0, "tpm must be > 0: " + tpm);
        ConfigChecks.require(burstSeconds > 0 && burstSeconds <= 60, "burstSeconds must be in (0, 60]: " + burstSeconds);
        Objects.requireNonNull(apiKeys, "apiKeys");
        for (String key : apiKeys) {
            ConfigChecks.require(key != null && !key.isBlank(), "apiKeys must not contain blank keys");
        }
        apiKeys = Set.copyOf(apiKeys);
        ConfigChecks.notBlank(model, "model");
        ConfigChecks.require(baseLatencyMs >= 0, "baseLatencyMs must be >= 0: " + baseLatencyMs);
        ConfigChecks.require(perCompletionTokenMs >= 0 && !Double.isInfinite(perCompletionTokenMs),
                "perCompletionTokenMs must be >= 0: " + perCompletionTokenMs);
        ConfigChecks.require(latencyJitter >= 0 && latencyJitter <= 1, "latencyJitter must be in [0, 1]: " + latencyJitter);
        ConfigChecks.require(defaultMaxTokens > 0, "defaultMaxTokens must be > 0: " + defaultMaxTokens);
        Objects.requireNonNull(faults, "faults");
        Objects.requireNonNull(tokenizer, "tokenizer");
        ConfigChecks.require(contextTokens > 0, "contextTokens must be > 0: " + contextTokens);
        ConfigChecks.require(startLevel >= 0 && startLevel <= 1,
                "startLevel must be in [0, 1] (1 = buckets start full): " + startLevel);
        extraModels = List.copyOf(Objects.requireNonNull(extraModels, "extraModels"));
        Objects.requireNonNull(headersAt, "headersAt");
        Objects.requireNonNull(dialect, "dialect");
        Objects.requireNonNull(engine, "engine");
        Set<String> names = new HashSet<>();
        names.add(model);
        for (ModelSpec extra : extraModels) {
            ConfigChecks.require(names.add(extra.name()), "model " + extra.name() + " is served twice");
        }
    }

    /** The default model: {@link #model()} with the single-model limits, window, tokenizer and the simulator's keys. */
    public ModelSpec defaultModel() {
        return new ModelSpec(model, rpm, tpm, burstSeconds, contextTokens, tokenizer, Set.of());
    }

    /** Every model served, the default one first. */
    public List<ModelSpec> models() {
        List<ModelSpec> all = new ArrayList<>(1 + extraModels.size());
        all.add(defaultModel());
        all.addAll(extraModels);
        return List.copyOf(all);
    }

    /** The served model named {@code name}, if any. */
    public Optional<ModelSpec> servedModel(String name) {
        return models().stream().filter(m -> m.name().equals(name)).findFirst();
    }

    /**
     * Every default: port 8089, RPM 500, TPM 200 000, burst 5 s starting full, any key, gpt-4o-mini
     * with its own tokenizer (o200k_base) and a 128 000-token context, 150 ms + 2 ms/token ±20 %.
     */
    public static SimulatorConfig ofDefaults() {
        return builder().build();
    }

    public static Builder builder() {
        return new Builder();
    }

    /** A builder pre-filled with this configuration. */
    public Builder toBuilder() {
        return new Builder()
                .port(port).bindAddress(bindAddress).rpm(rpm).tpm(tpm).burstSeconds(burstSeconds)
                .apiKeys(apiKeys).model(model).baseLatencyMs(baseLatencyMs)
                .perCompletionTokenMs(perCompletionTokenMs).latencyJitter(latencyJitter).seed(seed)
                .defaultMaxTokens(defaultMaxTokens).faults(faults).tokenizer(tokenizer).contextTokens(contextTokens)
                .startLevel(startLevel).classify(classify).extraModels(extraModels).headersAt(headersAt).dialect(dialect)
                .engine(engine.orElse(null)).chargesMaxTokens(chargesMaxTokens);
    }

    /** The tokenizer actually used: {@link #tokenizer()} with {@link SimTokenizer#AUTO} resolved for the model. */
    public SimTokenizer resolvedTokenizer() {
        return tokenizer.resolve(model);
    }

    /** Whether the buckets of a new key start full. */
    public boolean startFull() {
        return startLevel >= 1;
    }

    /** Request bucket capacity: {@code rpm × burstSeconds / 60}. */
    public double requestCapacity() {
        return rpm * burstSeconds / 60.0;
    }

    /** Token bucket capacity: {@code tpm × burstSeconds / 60}. */
    public double tokenCapacity() {
        return tpm * burstSeconds / 60.0;
    }

    /** Never prints the keys themselves, only how many there are. */
    @Override
    public String toString() {
        return "SimulatorConfig[port=" + port + ", bindAddress=" + bindAddress + ", rpm=" + rpm + ", tpm=" + tpm
                + ", burstSeconds=" + burstSeconds + ", apiKeys=" + (apiKeys.isEmpty() ? "any" : apiKeys.size() + " key(s)")
                + ", model=" + model + ", baseLatencyMs=" + baseLatencyMs + ", perCompletionTokenMs="
                + perCompletionTokenMs + ", latencyJitter=" + latencyJitter + ", seed=" + seed
                + ", defaultMaxTokens=" + defaultMaxTokens + ", faults=" + faults + ", tokenizer=" + tokenizer
                + ", contextTokens=" + contextTokens + ", startLevel=" + startLevel + ", headersAt=" + headersAt.label()
                + (extraModels.isEmpty() ? "" : ", extraModels=" + extraModels)
                + engine.map(e -> ", engine=" + e.label()).orElse("") + (chargesMaxTokens ? "" : ", charges the prompt only") + "]";
    }

    /** Mutable builder; {@link #build()} validates. */
    public static final class Builder {
        private int port = DEFAULT_PORT;
        private String bindAddress = DEFAULT_BIND_ADDRESS;
        private long rpm = DEFAULT_RPM;
        private long tpm = DEFAULT_TPM;
        private double burstSeconds = DEFAULT_BURST_SECONDS;
        private Set<String> apiKeys = Set.of();
        private String model = DEFAULT_MODEL;
        private long baseLatencyMs = DEFAULT_BASE_LATENCY_MS;
        private double perCompletionTokenMs = DEFAULT_PER_COMPLETION_TOKEN_MS;
        private double latencyJitter = DEFAULT_LATENCY_JITTER;
        private long seed = DEFAULT_SEED;
        private int defaultMaxTokens = DEFAULT_MAX_TOKENS;
        private Faults faults = Faults.none();
        private SimTokenizer tokenizer = DEFAULT_TOKENIZER;
        private int contextTokens = DEFAULT_CONTEXT_TOKENS;
        private double startLevel = DEFAULT_START_LEVEL;
        private boolean classify = true;
        private final List<ModelSpec> extraModels = new ArrayList<>();
        private HeaderMoment headersAt = HeaderMoment.ADMISSION;
        private SimDialect dialect = SimDialect.OPENAI;
        private EngineMode engine;
        private boolean chargesMaxTokens = true;

        private Builder() {
        }

        /** Whether the token bucket is debited {@code max_tokens} besides the prompt; true by default. */
        public Builder chargesMaxTokens(boolean value) {
            this.chargesMaxTokens = value;
            return this;
        }

        public Builder port(int port) {
            this.port = port;
            return this;
        }

        public Builder bindAddress(String bindAddress) {
            this.bindAddress = bindAddress;
            return this;
        }

        public Builder rpm(long rpm) {
            this.rpm = rpm;
            return this;
        }

        public Builder tpm(long tpm) {
            this.tpm = tpm;
            return this;
        }

        public Builder burstSeconds(double burstSeconds) {
            this.burstSeconds = burstSeconds;
            return this;
        }

        public Builder apiKeys(Set<String> apiKeys) {
            this.apiKeys = apiKeys;
            return this;
        }

        public Builder model(String model) {
            this.model = model;
            return this;
        }

        public Builder baseLatencyMs(long baseLatencyMs) {
            this.baseLatencyMs = baseLatencyMs;
            return this;
        }

        public Builder perCompletionTokenMs(double perCompletionTokenMs) {
            this.perCompletionTokenMs = perCompletionTokenMs;
            return this;
        }

        public Builder latencyJitter(double latencyJitter) {
            this.latencyJitter = latencyJitter;
            return this;
        }

        /** No latency at all: handy in tests. */
        public Builder noLatency() {
            return baseLatencyMs(0).perCompletionTokenMs(0).latencyJitter(0);
        }

        public Builder seed(long seed) {
            this.seed = seed;
            return this;
        }

        public Builder defaultMaxTokens(int defaultMaxTokens) {
            this.defaultMaxTokens = defaultMaxTokens;
            return this;
        }

        public Builder faults(Faults faults) {
            this.faults = faults;
            return this;
        }

        /** How the simulator counts tokens; {@link SimTokenizer#AUTO} by default. */
        public Builder tokenizer(SimTokenizer tokenizer) {
            this.tokenizer = tokenizer;
            return this;
        }

        /** {@link #tokenizer(SimTokenizer)} by name: {@code auto}, {@code o200k_base}, {@code cl100k_base}, {@code chars}. */
        public Builder tokenizer(String name) {
            return tokenizer(SimTokenizer.parse(name));
        }

        /** The model's context window in tokens (prompt + max_tokens); 128 000 by default. */
        public Builder contextTokens(int contextTokens) {
            this.contextTokens = contextTokens;
            return this;
        }

        /** Starting level of a new key's buckets as a fraction of their capacity, in [0, 1]; 1 by default. */
        public Builder startLevel(double startLevel) {
            this.startLevel = startLevel;
            return this;
        }

        /** Whether to classify with the keyword rules (true, the default) or answer a fixed label (costs nothing). */
        public Builder classify(boolean classify) {
            this.classify = classify;
            return this;
        }

        /** Also serves {@code spec} (repeatable): a model with its own limits, window, tokenizer and keys. */
        public Builder serve(ModelSpec spec) {
            extraModels.add(Objects.requireNonNull(spec, "spec"));
            return this;
        }

        /** Replaces the models served besides the default one. */
        public Builder extraModels(List<ModelSpec> specs) {
            extraModels.clear();
            extraModels.addAll(specs);
            return this;
        }

        /** {@code startLevel(1)} when true (the default), {@code startLevel(0)} when false. */
        public Builder startFull(boolean startFull) {
            return startLevel(startFull ? 1.0 : 0.0);
        }

        /** When a 200's rate-limit headers are taken; {@link HeaderMoment#ADMISSION} by default. */
        public Builder headersAt(HeaderMoment headersAt) {
            this.headersAt = headersAt;
            return this;
        }

        public Builder dialect(SimDialect dialect) {
            this.dialect = dialect;
            return this;
        }

        /**
         * Serve as a self-hosted engine ({@link EngineMode}): no rate limits, no rate-limit headers,
         * latency growing beyond the engine's saturation; null: a rate-limited provider (the default).
         */
        public Builder engine(EngineMode engine) {
            this.engine = engine;
            return this;
        }

        public SimulatorConfig build() {
            return new SimulatorConfig(port, bindAddress, rpm, tpm, burstSeconds, apiKeys, model, baseLatencyMs,
                    perCompletionTokenMs, latencyJitter, seed, defaultMaxTokens, faults, tokenizer, contextTokens,
                    startLevel, classify, extraModels, headersAt, dialect, Optional.ofNullable(engine), chargesMaxTokens);
        }
    }
}
