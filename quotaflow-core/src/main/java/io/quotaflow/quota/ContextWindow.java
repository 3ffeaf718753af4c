package io.quotaflow.quota;

import java.util.OptionalLong;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The model's context window as the provider enforces it: the configured value to start with, then
 * what a 400 {@code context_length_exceeded} says ("This model's maximum context length is 8192
 * tokens"). Counted in the provider's tokens (prompt + {@code max_tokens}). Only ever lowered.
 */
public final class ContextWindow {

    private static final Pattern MAXIMUM = Pattern.compile(
            "maximum context length is\\s+([0-9][0-9,_]*)\\s*tokens|context (?:window|length)[^0-9]{0,40}([0-9][0-9,_]{2,})\\s*tokens",
            Pattern.CASE_INSENSITIVE);

    private long tokens;
    private boolean learned;

    public ContextWindow(long configuredTokens) {
        this.tokens = configuredTokens;
    }

    /** The window stated in a provider's error message, if it states one. */
    public static OptionalLong parse(String message) {
        if (message == null) {
            return OptionalLong.empty();
        }
        Matcher m = MAXIMUM.matcher(message);
        if (!m.find()) {
            return OptionalLong.empty();
        }
        String digits = (m.group(1) != null ? m.group(1) : m.group(2)).replace(",", "").replace("_", "");
        try {
            long v = Long.parseLong(digits);
            return v > 0 ? OptionalLong.of(v) : OptionalLong.empty();
        } catch (NumberFormatException e) {
            return OptionalLong.empty();
        }
    }

    /** Learns from a refusal's message; true when the window shrank. */
    public boolean learn(String message) {
        OptionalLong stated = parse(message);
        if (stated.isPresent() && stated.getAsLong() < tokens) {
            tokens = stated.getAsLong();
            learned = true;
            return true;
        }
        return false;
    }

    public long tokens() {
        return tokens;
    }

    /** Whether the window was learned from the provider (rather than configured). */
    public boolean learned() {
        return learned;
    }

    /** Whether a call the provider counts as {@code providerCost} (prompt + max_tokens) fits. */
    public boolean fits(long providerCost) {
        return providerCost <= tokens;
    }
}
