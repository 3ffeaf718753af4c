package io.quotaflow.bench;

import io.quotaflow.simulator.SimulatorStats;

/** The provider limit a scenario is designed to bind: what its steady-state use is measured against. */
public enum Binding {
    /** Tokens per minute, counted as the provider charges them at admission (prompt + {@code max_tokens}). */
    TPM,
    /** Requests per minute. */
    RPM;

    /** What one second's admissions spent of this limit. */
    public long of(SimulatorStats.Second second) {
        return this == TPM ? second.tokensAdmitted() : second.requestsAdmitted();
    }

    /** This limit for one key, per minute. */
    public long limit(long rpm, long tpm) {
        return this == TPM ? tpm : rpm;
    }
}
