package io.quotaflow.simulator;

import java.util.Locale;

/**
 * When a 200's {@code x-ratelimit-*} headers are taken. Real providers compute them when they admit
 * the call, so with a two-second call the answer carries a view two seconds old.
 */
public enum HeaderMoment {
    /** A snapshot of the buckets when the call is admitted, sent with the answer after the latency (the default). */
    ADMISSION,
    /** The buckets as they are when the answer is sent. */
    ANSWER;

    /** {@code admission} or {@code answer}, any case. */
    public static HeaderMoment parse(String value) {
        try {
            return valueOf(value.strip().toUpperCase(Locale.ROOT));
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("headers-at must be admission or answer: " + value, e);
        }
    }

    public String label() {
        return name().toLowerCase(Locale.ROOT);
    }
}
