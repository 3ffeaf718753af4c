package io.quotaflow.bench;

import io.quotaflow.simulator.SimTokenizer;
import io.quotaflow.simulator.SimulatorConfig;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Objects;

/**
 * How a scenario's provider differs from what the client assumes, and what its tickets look like
 * beyond the default mix. The pipeline itself always runs with its defaults (o200k_base for
 * gpt-4o-mini, a 128 000-token context): it has to find out about the provider from its answers.
 *
 * @param tokenizer            how the simulator counts tokens ({@link SimTokenizer#AUTO}: as the client does)
 * @param contextTokens        the simulator's context window
 * @param startLevel           where the simulator's buckets start, as a fraction of their capacity (1 = full)
 * @param baseLatencyMs        the simulator's base latency per answer; null = its default
 * @param perCompletionTokenMs the simulator's latency per completion token; null = its default
 * @param latencyJitter        the simulator's relative latency jitter; null = its default
 * @param hugeShare            share of tickets made huge ({@link TicketGenerator#HUGE_MIN_CHARS}–{@link
 *                             TicketGenerator#HUGE_MAX_CHARS} characters); 0 = the default mix
 * @param classifies           whether the simulator's model reads the tickets (its keyword classifier), or
 *                             answers every one with a fixed label; only then are the answers scored
 */
public record ScenarioShape(SimTokenizer tokenizer, int contextTokens, double startLevel, Long baseLatencyMs,
                            Double perCompletionTokenMs, Double latencyJitter, double hugeShare, boolean classifies) {

    /** The simulator's defaults: the client's own tokenizer, 128 000 tokens of context, buckets full, 150 ms + 2 ms/token. */
    public static final ScenarioShape DEFAULT = new ScenarioShape(SimTokenizer.AUTO, SimulatorConfig.DEFAULT_CONTEXT_TOKENS,
            SimulatorConfig.DEFAULT_START_LEVEL, null, null, null, 0, true);

    public ScenarioShape {
        Objects.requireNonNull(tokenizer, "tokenizer");
        if (contextTokens < 1 || !(startLevel >= 0 && startLevel <= 1) || !(hugeShare >= 0 && hugeShare <= 1)) {
            throw new IllegalArgumentException("invalid shape: context=" + contextTokens + " startLevel=" + startLevel
                    + " hugeShare=" + hugeShare);
        }
    }

    public ScenarioShape withTokenizer(SimTokenizer value) {
        return new ScenarioShape(value, contextTokens, startLevel, baseLatencyMs, perCompletionTokenMs, latencyJitter, hugeShare, classifies);
    }

    public ScenarioShape withContextTokens(int value) {
        return new ScenarioShape(tokenizer, value, startLevel, baseLatencyMs, perCompletionTokenMs, latencyJitter, hugeShare, classifies);
    }

    public ScenarioShape withStartLevel(double value) {
        return new ScenarioShape(tokenizer, contextTokens, value, baseLatencyMs, perCompletionTokenMs, latencyJitter, hugeShare, classifies);
    }

    public ScenarioShape withLatency(long baseMs, double perTokenMs, double jitter) {
        return new ScenarioShape(tokenizer, contextTokens, startLevel, baseMs, perTokenMs, jitter, hugeShare, classifies);
    }

    /** The simulator's model answers every ticket with a fixed label, without reading it (its classifier's CPU is not the client's). */
    public ScenarioShape withFixedAnswers() {
        return new ScenarioShape(tokenizer, contextTokens, startLevel, baseLatencyMs, perCompletionTokenMs, latencyJitter, hugeShare,
                false);
    }

    public ScenarioShape withHugeShare(double value) {
        return new ScenarioShape(tokenizer, contextTokens, startLevel, baseLatencyMs, perCompletionTokenMs, latencyJitter, value, classifies);
    }

    /** Applies the provider part of the shape to a simulator configuration (limits and burst are the scenario's). */
    public SimulatorConfig.Builder applyTo(SimulatorConfig.Builder b) {
        b.tokenizer(tokenizer).contextTokens(contextTokens).startLevel(startLevel).classify(classifies);
        if (baseLatencyMs != null) {
            b.baseLatencyMs(baseLatencyMs);
        }
        if (perCompletionTokenMs != null) {
            b.perCompletionTokenMs(perCompletionTokenMs);
        }
        if (latencyJitter != null) {
            b.latencyJitter(latencyJitter);
        }
        return b;
    }

    /** What differs from the defaults, e.g. {@code sim counts cl100k_base, context 8,192}; empty when nothing does. */
    public String describe() {
        List<String> parts = new ArrayList<>();
        if (tokenizer != SimTokenizer.AUTO) {
            parts.add("sim counts " + tokenizer.id());
        }
        if (contextTokens != SimulatorConfig.DEFAULT_CONTEXT_TOKENS) {
            parts.add(String.format(Locale.ROOT, "context %,d", contextTokens));
        }
        if (startLevel != SimulatorConfig.DEFAULT_START_LEVEL) {
            parts.add(String.format(Locale.ROOT, "buckets start at %.0f %%", startLevel * 100));
        }
        if (baseLatencyMs != null || perCompletionTokenMs != null) {
            parts.add("latency " + (baseLatencyMs == null ? SimulatorConfig.DEFAULT_BASE_LATENCY_MS : baseLatencyMs) + " ms + "
                    + number(perCompletionTokenMs == null ? SimulatorConfig.DEFAULT_PER_COMPLETION_TOKEN_MS : perCompletionTokenMs)
                    + " ms/token");
        }
        if (hugeShare > 0) {
            parts.add(number(hugeShare * 100) + " % huge tickets");
        }
        if (!classifies) {
            parts.add("fixed answers");
        }
        return String.join(", ", parts);
    }

    private static String number(double v) {
        return v == Math.rint(v) ? Long.toString((long) v) : String.format(Locale.ROOT, "%.1f", v);
    }
}
