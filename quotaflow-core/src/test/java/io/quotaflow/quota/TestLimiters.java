package io.quotaflow.quota;

import io.quotaflow.settings.DailyLimits;
import io.quotaflow.settings.QuotaSettings;

/** Builds {@link QuotaLimiter}s for tests: the RPM and TPM of the settings, and only the other limits a test names. */
final class TestLimiters {

    private final QuotaSettings settings;
    private DailyLimits daily = DailyLimits.NONE;
    private int inputTpm;
    private int outputTpm;

    private TestLimiters(QuotaSettings settings) {
        this.settings = settings;
    }

    static TestLimiters of(QuotaSettings settings) {
        return new TestLimiters(settings);
    }

    TestLimiters daily(DailyLimits value) {
        daily = value;
        return this;
    }

    TestLimiters inputTpm(int value) {
        inputTpm = value;
        return this;
    }

    TestLimiters outputTpm(int value) {
        outputTpm = value;
        return this;
    }

    /** The limiter, its buckets empty at {@code nowNanos}. */
    QuotaLimiter startingAt(long nowNanos) {
        return new QuotaLimiter(settings, daily, inputTpm, outputTpm, nowNanos);
    }
}
