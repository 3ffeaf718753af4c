package io.quotaflow.simulator;

import java.time.Duration;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The outcome of one {@link KeyLimiter#admit(long)}, with the key's six {@code x-ratelimit-*}
 * headers as of that moment (after the debit when admitted, unchanged when refused).
 */
sealed interface Admission permits Admission.Admitted, Admission.Limited, Admission.TooLarge {

    /** The rate-limit headers of the answer. */
    Map<String, String> headers();

    /** Both buckets covered the request and were debited. */
    record Admitted(Map<String, String> headers) implements Admission {
        public Admitted {
            headers = Collections.unmodifiableMap(new LinkedHashMap<>(headers));
        }
    }

    /**
     * A bucket is short: waiting helps.
     *
     * @param limitedBy  {@code "requests"} or {@code "tokens"}: the bucket that binds
     * @param used       what the 429 message reports as used: the limit minus that bucket's
     *                   {@code x-ratelimit-remaining-*} of this very answer
     * @param retryAfter how long until both buckets cover the request
     */
    record Limited(String limitedBy, long used, Duration retryAfter, Map<String, String> headers) implements Admission {
        public Limited {
            headers = Collections.unmodifiableMap(new LinkedHashMap<>(headers));
        }
    }

    /** The estimate exceeds the per-minute token limit itself: no wait can help. */
    record TooLarge(Map<String, String> headers) implements Admission {
        public TooLarge {
            headers = Collections.unmodifiableMap(new LinkedHashMap<>(headers));
        }
    }
}
