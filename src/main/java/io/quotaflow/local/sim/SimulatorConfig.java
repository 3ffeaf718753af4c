package io.quotaflow.local.sim;

import java.math.BigDecimal;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Set;

/**
 * Configuration of the {@link ProviderSimulator}. Immutable; build with {@link #builder()} or take
 * {@link #ofDefaults()}. The canonical constructor validates every field, so an instance is always
 * usable.
 *
 * @param port                 TCP port to listen on; 0 picks a free port
 * @param bindAddress          address to listen on; the loopback address by default
 * @param rpm                  requests per minute allowed per API key
 * @param tpm                  tokens per minute allowed per API key (prompt estimate + max_tokens)
 * @param burstSeconds         seconds of refill each bucket holds: capacity = limit × burstSeconds / 60;
 *                             60 holds a full minute
 * @param apiKeys              accepted bearer keys; empty = accept any non-empty key
 * @param model                the one model served (requests naming another get 404 model_not_found)
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
        boolean classify) {

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
        if (port < 0 || port > 65_535) {
            throw new IllegalArgumentException("port must be 0..65535: " + port);
        }
        Objects.requireNonNull(bindAddress, "bindAddress");
        if (bindAddress.isBlank()) {
            throw new IllegalArgumentException("bindAddress must not be blank");
        }
        if (rpm <= 0) {
            throw new IllegalArgumentException("rpm must be > 0: " + rpm);
        }
        if (tpm <= 0) {
            throw new IllegalArgumentException("tpm must be > 0: " + tpm);
        }
        if (!(burstSeconds > 0 && burstSeconds <= 60)) {
            throw new IllegalArgumentException("burstSeconds must be in (0, 60]: " + burstSeconds);
        }
        Objects.requireNonNull(apiKeys, "apiKeys");
        for (String key : apiKeys) {
            if (key == null || key.isBlank()) {
                throw new IllegalArgumentException("apiKeys must not contain blank keys");
            }
        }
        apiKeys = Set.copyOf(apiKeys);
        Objects.requireNonNull(model, "model");
        if (model.isBlank()) {
            throw new IllegalArgumentException("model must not be blank");
        }
        if (baseLatencyMs < 0) {
            throw new IllegalArgumentException("baseLatencyMs must be >= 0: " + baseLatencyMs);
        }
        if (!(perCompletionTokenMs >= 0) || Double.isInfinite(perCompletionTokenMs)) {
            throw new IllegalArgumentException("perCompletionTokenMs must be >= 0: " + perCompletionTokenMs);
        }
        if (!(latencyJitter >= 0 && latencyJitter <= 1)) {
            throw new IllegalArgumentException("latencyJitter must be in [0, 1]: " + latencyJitter);
        }
        if (defaultMaxTokens <= 0) {
            throw new IllegalArgumentException("defaultMaxTokens must be > 0: " + defaultMaxTokens);
        }
        Objects.requireNonNull(faults, "faults");
        Objects.requireNonNull(tokenizer, "tokenizer");
        if (contextTokens <= 0) {
            throw new IllegalArgumentException("contextTokens must be > 0: " + contextTokens);
        }
        if (!(startLevel >= 0 && startLevel <= 1)) {
            throw new IllegalArgumentException("startLevel must be in [0, 1] (1 = buckets start full): " + startLevel);
        }
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
                .startLevel(startLevel).classify(classify);
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
                + ", contextTokens=" + contextTokens + ", startLevel=" + startLevel + "]";
    }

    /**
     * Fault injection (the flags {@code --p500 --p503 --p529 --p-malformed --p-missing-item
     * --p-hang --outage START:END --fail-auth}), also switchable at run time with
     * {@link ProviderSimulator#setFaults(Faults)} or {@code POST /admin/faults}.
     *
     * <p>The probabilities apply to every chat-completion request that passed authentication and
     * validation, and are exclusive: one uniform draw of the simulator's seeded random source
     * picks at most one fault, so their sum must not exceed 1. HTTP 500, 503, 529 and hangs are
     * drawn before the rate limits and never debit them; a malformed or missing-item answer is a
     * 200 that was admitted, so it debits them like any other 200 (and, when the buckets are short,
     * the request gets its 429 instead).
     *
     * @param p500         probability of an HTTP 500 {@code server_error}
     * @param p503         probability of an HTTP 503 "The server is overloaded or not ready yet."
     * @param p529         probability of an HTTP 529 {@code overloaded_error}
     * @param pMalformed   probability of a 200 whose message content is not valid JSON
     * @param pMissingItem probability of a 200 whose results omit one ticket id of the batch
     * @param pHang        probability of never answering (the connection is closed after
     *                     {@link ProviderSimulator#HANG}; the client's timeout must fire first)
     * @param outages      windows, relative to the simulator's start, during which every
     *                     chat-completion request gets 503 (without debiting the rate limits)
     * @param failAuth     answer every request with 401 {@code invalid_api_key}
     */
    public record Faults(
            double p500,
            double p503,
            double p529,
            double pMalformed,
            double pMissingItem,
            double pHang,
            List<Outage> outages,
            boolean failAuth) {

        private static final Faults NONE = new Faults(0, 0, 0, 0, 0, 0, List.of(), false);
        /** Tolerance of the sum-of-probabilities check (decimal flags such as 0.1 + 0.2 + 0.7). */
        private static final double SUM_EPSILON = 1e-9;

        public Faults {
            probability("p500", p500);
            probability("p503", p503);
            probability("p529", p529);
            probability("pMalformed", pMalformed);
            probability("pMissingItem", pMissingItem);
            probability("pHang", pHang);
            double sum = p500 + p503 + p529 + pMalformed + pMissingItem + pHang;
            if (sum > 1 + SUM_EPSILON) {
                throw new IllegalArgumentException("fault probabilities are exclusive and must add up to at most 1: "
                        + "p500 + p503 + p529 + pMalformed + pMissingItem + pHang = " + sum);
            }
            outages = List.copyOf(Objects.requireNonNull(outages, "outages"));
        }

        /** No faults at all. */
        public static Faults none() {
            return NONE;
        }

        /** A builder starting from {@link #none()}. */
        public static FaultsBuilder builder() {
            return new FaultsBuilder();
        }

        /** A builder pre-filled with these faults. */
        public FaultsBuilder toBuilder() {
            return new FaultsBuilder().p500(p500).p503(p503).p529(p529).pMalformed(pMalformed)
                    .pMissingItem(pMissingItem).pHang(pHang).outages(outages).failAuth(failAuth);
        }

        /** Whether any fault is configured. */
        public boolean any() {
            return !equals(NONE);
        }

        /** The sum of the probabilities: the chance that a request draws some fault. */
        public double probabilitySum() {
            return p500 + p503 + p529 + pMalformed + pMissingItem + pHang;
        }

        /** Whether {@code sinceStart} (time since the simulator started) falls in an outage window. */
        public boolean inOutage(Duration sinceStart) {
            for (Outage outage : outages) {
                if (outage.contains(sinceStart)) {
                    return true;
                }
            }
            return false;
        }

        /** {@code p500=0.1, outage=30:90, fail-auth}, or {@code none}: for banners and logs. */
        public String describe() {
            if (!any()) {
                return "none";
            }
            List<String> parts = new ArrayList<>();
            add(parts, "p500", p500);
            add(parts, "p503", p503);
            add(parts, "p529", p529);
            add(parts, "p-malformed", pMalformed);
            add(parts, "p-missing-item", pMissingItem);
            add(parts, "p-hang", pHang);
            outages.forEach(o -> parts.add("outage=" + o));
            if (failAuth) {
                parts.add("fail-auth");
            }
            return String.join(", ", parts);
        }

        private static void add(List<String> parts, String name, double p) {
            if (p > 0) {
                parts.add(name + "=" + BigDecimal.valueOf(p).stripTrailingZeros().toPlainString());
            }
        }

        private static void probability(String name, double p) {
            if (!(p >= 0 && p <= 1)) {
                throw new IllegalArgumentException(name + " must be a probability in [0, 1]: " + p);
            }
        }
    }

    /** Mutable builder of {@link Faults}; {@link #build()} validates. */
    public static final class FaultsBuilder {
        private double p500;
        private double p503;
        private double p529;
        private double pMalformed;
        private double pMissingItem;
        private double pHang;
        private final List<Outage> outages = new ArrayList<>();
        private boolean failAuth;

        private FaultsBuilder() {
        }

        public FaultsBuilder p500(double p) {
            this.p500 = p;
            return this;
        }

        public FaultsBuilder p503(double p) {
            this.p503 = p;
            return this;
        }

        public FaultsBuilder p529(double p) {
            this.p529 = p;
            return this;
        }

        public FaultsBuilder pMalformed(double p) {
            this.pMalformed = p;
            return this;
        }

        public FaultsBuilder pMissingItem(double p) {
            this.pMissingItem = p;
            return this;
        }

        public FaultsBuilder pHang(double p) {
            this.pHang = p;
            return this;
        }

        /** Adds an outage window {@code [start, end)} measured from the simulator's start. */
        public FaultsBuilder outage(Duration start, Duration end) {
            outages.add(new Outage(start, end));
            return this;
        }

        /** Adds an outage window, in seconds from the simulator's start. */
        public FaultsBuilder outageSeconds(long startSeconds, long endSeconds) {
            return outage(Duration.ofSeconds(startSeconds), Duration.ofSeconds(endSeconds));
        }

        /** Replaces the outage windows. */
        public FaultsBuilder outages(List<Outage> windows) {
            outages.clear();
            outages.addAll(windows);
            return this;
        }

        public FaultsBuilder failAuth(boolean failAuth) {
            this.failAuth = failAuth;
            return this;
        }

        public Faults build() {
            return new Faults(p500, p503, p529, pMalformed, pMissingItem, pHang, outages, failAuth);
        }
    }

    /** A window {@code [start, end)} measured from the simulator's start. */
    public record Outage(Duration start, Duration end) {
        public Outage {
            Objects.requireNonNull(start, "start");
            Objects.requireNonNull(end, "end");
            if (start.isNegative() || end.compareTo(start) <= 0) {
                throw new IllegalArgumentException("outage needs 0 <= start < end: " + start + ".." + end);
            }
        }

        /**
         * Parses {@code START:END}, seconds after the simulator's start, e.g. {@code 30:90} or
         * {@code 2.5:4}.
         *
         * @throws IllegalArgumentException when the text is not two non-negative numbers with start &lt; end
         */
        public static Outage parse(String text) {
            Objects.requireNonNull(text, "text");
            String[] parts = text.strip().split(":", -1);
            if (parts.length != 2) {
                throw new IllegalArgumentException("outage must be START:END in seconds, e.g. 30:90: " + text);
            }
            return new Outage(seconds(parts[0], text), seconds(parts[1], text));
        }

        private static Duration seconds(String value, String text) {
            BigDecimal seconds;
            try {
                seconds = new BigDecimal(value.strip());
            } catch (NumberFormatException e) {
                throw new IllegalArgumentException("outage must be START:END in seconds, e.g. 30:90: " + text);
            }
            if (seconds.signum() < 0 || seconds.compareTo(BigDecimal.valueOf(Long.MAX_VALUE / 1_000_000_000L)) > 0) {
                throw new IllegalArgumentException("outage times must be between 0 and a few centuries: " + text);
            }
            return Duration.ofNanos(seconds.movePointRight(9).longValue());
        }

        /** Whether {@code sinceStart} is in {@code [start, end)}. */
        public boolean contains(Duration sinceStart) {
            return sinceStart.compareTo(start) >= 0 && sinceStart.compareTo(end) < 0;
        }

        /** {@code START:END} in seconds, the form {@link #parse} reads. */
        @Override
        public String toString() {
            return seconds(start) + ":" + seconds(end);
        }

        private static String seconds(Duration d) {
            return BigDecimal.valueOf(d.toNanos(), 9).stripTrailingZeros().toPlainString();
        }
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

        private Builder() {
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

        /** {@code startLevel(1)} when true (the default), {@code startLevel(0)} when false. */
        /** Whether to classify with the keyword rules (true, the default) or answer a fixed label (costs nothing). */
        public Builder classify(boolean classify) {
            this.classify = classify;
            return this;
        }

        public Builder startFull(boolean startFull) {
            return startLevel(startFull ? 1.0 : 0.0);
        }

        public SimulatorConfig build() {
            return new SimulatorConfig(port, bindAddress, rpm, tpm, burstSeconds, apiKeys, model, baseLatencyMs,
                    perCompletionTokenMs, latencyJitter, seed, defaultMaxTokens, faults, tokenizer, contextTokens,
                    startLevel, classify);
        }
    }
}
