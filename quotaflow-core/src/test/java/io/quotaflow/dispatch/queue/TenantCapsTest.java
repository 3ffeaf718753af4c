package io.quotaflow.dispatch.queue;

import io.quotaflow.settings.TenantSettings;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class TenantCapsTest {

    private static final long T0 = 1_700_000_000_000L;

    @Test
    void shouldHoldATenantWhoseTokensPerMinuteAreSpentUntilItsBucketRefills() {
        TenantCaps caps = new TenantCaps(TenantSettings.builder().tpm("noisy", 6_000).build());
        assertThat(caps.allows("noisy", 6_000, 1, T0)).isTrue();
        caps.charge("noisy", 6_000, 3, T0);
        assertThat(caps.holds("noisy", 500, T0)).isTrue();
        assertThat(caps.holds("noisy", 500, T0 + 4_000)).as("100 tokens/s: 400 after 4 s").isTrue();
        assertThat(caps.holds("noisy", 500, T0 + 5_000)).isFalse();
        assertThat(caps.allows("quiet", 1_000_000, 1_000, T0)).as("an uncapped tenant is never held").isTrue();
    }

    @Test
    void shouldHoldATenantWhoseTicketsPerMinuteAreSpent() {
        TenantCaps caps = new TenantCaps(TenantSettings.builder().rpm("t", 60).build());
        assertThat(caps.allows("t", 10, 60, T0)).isTrue();
        assertThat(caps.allows("t", 10, 61, T0)).isFalse();
        caps.charge("t", 10, 60, T0);
        assertThat(caps.holds("t", 1, T0 + 500)).isTrue();
        assertThat(caps.holds("t", 1, T0 + 1_000)).isFalse();
    }

    @Test
    void shouldLetATicketLargerThanTheWholeCapGoAloneFromAFullBucket() {
        TenantCaps caps = new TenantCaps(TenantSettings.builder().tpm("t", 1_000).build());
        assertThat(caps.allows("t", 5_000, 1, T0)).isTrue();
        caps.charge("t", 5_000, 1, T0);
        assertThat(caps.holds("t", 5_000, T0 + 60_000)).as("the debt is paid first").isTrue();
        assertThat(caps.holds("t", 5_000, T0 + 300_000)).isFalse();
    }
}
