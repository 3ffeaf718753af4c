package io.quotaflow.dispatch.call;

import org.junit.jupiter.api.Test;

import java.util.OptionalLong;

import static org.assertj.core.api.Assertions.assertThat;

/** The enqueued-token limit learned from the provider's refusals and calibrated by its counts. */
class EnqueuedLimitTest {

    @Test
    void shouldReadTheLimitFromOpenAiAndAzureMessages() {
        assertThat(EnqueuedLimit.parse("Enqueued token limit reached for gpt-4o-mini in organization org-snq. Limit: 2,000,000 "
                + "enqueued tokens. Please try again once some in_progress batches have been completed.")).hasValue(2_000_000);
        assertThat(EnqueuedLimit.parse("The number of enqueued tokens has surpassed the configured limit of 30K for the deployment "
                + "'gpt-4.1-batch'.")).hasValue(30_000);
        assertThat(EnqueuedLimit.parse("Enqueued token limit reached.")).isEqualTo(OptionalLong.empty());
        assertThat(EnqueuedLimit.parse(null)).isEmpty();
    }

    @Test
    void shouldKeepTheConfiguredLimitUntilARefusalAndThenTheStatedOneLessTheMargin() {
        EnqueuedLimit limit = new EnqueuedLimit(1_000_000);
        assertThat(limit.limit()).isEqualTo(1_000_000);
        assertThat(limit.refused("Limit: 150,000 enqueued tokens.", 400_000)).isEqualTo(150_000);
        assertThat(limit.limit()).isEqualTo(135_000);
    }

    @Test
    void shouldCountMoreAfterARefusalOfWhatWasBelievedToFitAndFollowTheProvidersCounts() {
        EnqueuedLimit limit = new EnqueuedLimit(1_000_000);
        limit.refused("Limit: 100,000 enqueued tokens.", 500_000);
        limit.refused("Limit: 100,000 enqueued tokens.", 90_000);
        assertThat(limit.ratio()).isEqualTo(1.5);
        assertThat(limit.limit()).isEqualTo(60_000);

        limit.counted(10_000, 12_000);
        assertThat(limit.ratio()).as("the provider's own count replaces the guess").isEqualTo(1.2);
        limit.counted(10_000, 10_000);
        assertThat(limit.ratio()).isEqualTo(1.1);
    }

    @Test
    void shouldTakeHalfOfWhatWasHeldWhenTheRefusalStatesNoLimit() {
        EnqueuedLimit limit = new EnqueuedLimit(1_000_000);
        limit.refused("Enqueued token limit reached.", 40_000);
        assertThat(limit.learned()).isEqualTo(20_000);
        assertThat(limit.limit()).isEqualTo(18_000);
    }
}
