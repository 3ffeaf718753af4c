package io.quotaflow.dispatch.call;

import java.util.OptionalLong;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A batch route's enqueued-token limit as the provider holds it (docs/design.md, "Batch routes"):
 * the configured {@code batch.max-enqueued-tokens} until the provider refuses a job with
 * {@code token_limit_exceeded}; then the limit its message states (OpenAI: "Limit: 2,000,000 enqueued
 * tokens", Azure: "the configured limit of 30K"), less a {@link #MARGIN}, in our own count through a
 * ratio calibrated by the provider's counts: the {@code usage.input_tokens} it reports for each job
 * against what we counted for it, and, before any, a refusal of what we believed fitted. Stream thread only.
 */
public final class EnqueuedLimit {

    /** The share of the learned limit left unused, for the difference between its count and ours. */
    static final double MARGIN = 0.1;
    /** How much more the provider is taken to count after a refusal of what we believed fitted. */
    static final double REFUSED_STEP = 1.5;
    /** The ratio of the provider's count to ours is kept within these bounds. */
    static final double MIN_RATIO = 0.25;
    static final double MAX_RATIO = 8;
    /** The weight of a job's newest count in the calibrated ratio. */
    static final double WEIGHT = 0.5;

    private static final Pattern LIMIT = Pattern.compile("(?i)limit(?:\\s+of)?\\s*:?\\s*([0-9][0-9,._]*)\\s*([km])?\\b");

    private final long configured;
    /** The provider's limit in its own count; 0 until a refusal states (or implies) one. */
    private long learned;
    /** The provider's count of a job over ours. */
    private double ratio = 1;
    private boolean calibrated;

    EnqueuedLimit(long configured) {
        this.configured = configured;
    }

    /** The most tokens, in our count, the route's unfinished jobs may hold. */
    long limit() {
        if (learned <= 0) {
            return configured;
        }
        return Math.max(1, Math.min(configured, (long) (learned * (1 - MARGIN) / ratio)));
    }

    /**
     * The provider refused a job for its enqueued limit with {@code message}, while {@code held} tokens
     * (ours, this job's included) were enqueued. Returns the limit learned (its count).
     */
    long refused(String message, long held) {
        boolean believedFit = learned > 0 && held <= limit();
        OptionalLong stated = parse(message);
        if (stated.isPresent()) {
            learned = stated.getAsLong();
        } else {
            // none stated: what was held, less the refused job, is no longer taken to fit: half of it
            learned = Math.max(1, (long) (Math.max(1, held / 2) * ratio));
        }
        if (believedFit) {
            ratio = clamp(Math.max(ratio * REFUSED_STEP, (double) learned / Math.max(1, held)));
        }
        return learned;
    }

    /** A job we counted at {@code ours} tokens, the provider at {@code theirs} ({@code usage.input_tokens}). */
    void counted(long ours, long theirs) {
        if (ours <= 0 || theirs <= 0) {
            return;
        }
        double sample = clamp((double) theirs / ours);
        ratio = calibrated ? clamp(WEIGHT * sample + (1 - WEIGHT) * ratio) : sample;
        calibrated = true;
    }

    /** The provider's limit as learned, 0 when none is. */
    long learned() {
        return learned;
    }

    double ratio() {
        return ratio;
    }

    /** The number a {@code token_limit_exceeded} message states as the limit: "Limit: 2,000,000", "limit of 30K". */
    static OptionalLong parse(String message) {
        if (message == null) {
            return OptionalLong.empty();
        }
        Matcher m = LIMIT.matcher(message);
        while (m.find()) {
            String digits = m.group(1).replaceAll("[,._]", "");
            if (digits.isEmpty() || digits.length() > 15) {
                continue;
            }
            long n = Long.parseLong(digits);
            String unit = m.group(2);
            if (unit != null) {
                n *= unit.equalsIgnoreCase("k") ? 1_000 : 1_000_000;
            }
            if (n > 0) {
                return OptionalLong.of(n);
            }
        }
        return OptionalLong.empty();
    }

    private static double clamp(double r) {
        return Math.max(MIN_RATIO, Math.min(MAX_RATIO, r));
    }
}
