package io.quotaflow.simulator;

import java.util.Objects;
import java.util.Set;

/**
 * One model the {@link ProviderSimulator} serves, with its own limits and shape. A simulator
 * serves its default model ({@link SimulatorConfig#defaultModel()}, from the single-model fields)
 * and any number of others ({@link SimulatorConfig#extraModels()}) on one port; a request picks one
 * by its body's {@code model}. Each model has its own RPM and TPM buckets per API key, its own
 * context window and tokenizer, and may accept its own keys.
 *
 * @param name          the model's name, as requests give it in {@code model}
 * @param rpm           requests per minute allowed per API key
 * @param tpm           tokens per minute allowed per API key (prompt estimate + max_tokens)
 * @param burstSeconds  seconds of refill each bucket holds, in (0, 60]
 * @param contextTokens the context window (prompt + max_tokens)
 * @param tokenizer     how this model counts tokens; {@link SimTokenizer#AUTO} is the model's own
 * @param apiKeys       keys accepted for this model; empty = the simulator's keys
 *                      ({@link SimulatorConfig#apiKeys()})
 */
public record ModelSpec(String name, long rpm, long tpm, double burstSeconds, int contextTokens, SimTokenizer tokenizer,
                        Set<String> apiKeys) {

    public ModelSpec {
        ConfigChecks.notBlank(name, "model name");
        ConfigChecks.require(name.strip().equals(name), "model name must not start or end with spaces: '" + name + "'");
        ConfigChecks.require(rpm > 0, "model " + name + ": rpm must be > 0: " + rpm);
        ConfigChecks.require(tpm > 0, "model " + name + ": tpm must be > 0: " + tpm);
        ConfigChecks.require(burstSeconds > 0 && burstSeconds <= 60,
                "model " + name + ": burst-seconds must be in (0, 60]: " + burstSeconds);
        ConfigChecks.require(contextTokens > 0, "model " + name + ": context-tokens must be > 0: " + contextTokens);
        Objects.requireNonNull(tokenizer, "tokenizer");
        Objects.requireNonNull(apiKeys, "apiKeys");
        for (String key : apiKeys) {
            ConfigChecks.require(key != null && !key.isBlank(), "model " + name + ": apiKeys must not contain blank keys");
        }
        apiKeys = Set.copyOf(apiKeys);
    }

    /**
     * A model with the simulator's default limits (RPM 500, TPM 200 000, burst 5 s, context
     * 128 000, its own tokenizer) and the simulator's keys.
     */
    public static ModelSpec of(String name) {
        return new ModelSpec(name, SimulatorConfig.DEFAULT_RPM, SimulatorConfig.DEFAULT_TPM,
                SimulatorConfig.DEFAULT_BURST_SECONDS, SimulatorConfig.DEFAULT_CONTEXT_TOKENS, SimTokenizer.AUTO, Set.of());
    }

    public ModelSpec withLimits(long newRpm, long newTpm) {
        return new ModelSpec(name, newRpm, newTpm, burstSeconds, contextTokens, tokenizer, apiKeys);
    }

    public ModelSpec withBurstSeconds(double seconds) {
        return new ModelSpec(name, rpm, tpm, seconds, contextTokens, tokenizer, apiKeys);
    }

    public ModelSpec withContextTokens(int tokens) {
        return new ModelSpec(name, rpm, tpm, burstSeconds, tokens, tokenizer, apiKeys);
    }

    public ModelSpec withTokenizer(SimTokenizer value) {
        return new ModelSpec(name, rpm, tpm, burstSeconds, contextTokens, value, apiKeys);
    }

    public ModelSpec withApiKeys(Set<String> keys) {
        return new ModelSpec(name, rpm, tpm, burstSeconds, contextTokens, tokenizer, keys);
    }

    /** The tokenizer actually used: {@link #tokenizer()} with {@link SimTokenizer#AUTO} resolved for this model. */
    public SimTokenizer resolvedTokenizer() {
        return tokenizer.resolve(name);
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
        return "ModelSpec[name=" + name + ", rpm=" + rpm + ", tpm=" + tpm + ", burstSeconds=" + burstSeconds
                + ", contextTokens=" + contextTokens + ", tokenizer=" + tokenizer + ", apiKeys="
                + (apiKeys.isEmpty() ? "the simulator's" : apiKeys.size() + " key(s)") + "]";
    }
}
