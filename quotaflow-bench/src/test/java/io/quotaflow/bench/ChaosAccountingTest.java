package io.quotaflow.bench;

import io.quotaflow.bench.ChaosAccounting.DeadLetter;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

class ChaosAccountingTest {

    private static final List<String> PUBLISHED = List.of("T-1", "T-2", "T-3", "T-4", "T-5");

    @Test
    void shouldFindNothingLostOrDuplicatedWhenEveryTicketHasOneOutcome() {
        ChaosAccounting a = ChaosAccounting.of(PUBLISHED, List.of("T-3", "T-1", "T-2", "T-5"),
                List.of(new DeadLetter("T-4", "too-large")));

        assertThat(a.published()).isEqualTo(5);
        assertThat(a.classified()).isEqualTo(4);
        assertThat(a.deadLettered()).isEqualTo(1);
        assertThat(a.deadLettersByKind()).isEqualTo(Map.of("too-large", 1L));
        assertThat(a.lost()).isZero();
        assertThat(a.duplicated()).isZero();
        assertThat(a.unexpected()).isZero();
        assertThat(a.clean()).isTrue();
    }

    @Test
    void shouldCountATicketWithNeitherAResultNorADeadLetterAsLost() {
        ChaosAccounting a = ChaosAccounting.of(PUBLISHED, List.of("T-1", "T-3", "T-5"), List.of());

        assertThat(a.lost()).isEqualTo(2);
        assertThat(a.lostIds()).containsExactly("T-2", "T-4");
        assertThat(a.classified()).isEqualTo(3);
        assertThat(a.clean()).isFalse();
    }

    @Test
    void shouldCountIdsWithMoreThanOneResultRecordAsDuplicated() {
        ChaosAccounting a = ChaosAccounting.of(PUBLISHED, List.of("T-1", "T-2", "T-2", "T-3", "T-4", "T-5", "T-5", "T-5"), List.of());

        assertThat(a.duplicated()).isEqualTo(2);
        assertThat(a.duplicateRecords()).isEqualTo(3);
        assertThat(a.duplicatedIds()).containsExactly("T-2", "T-5");
        assertThat(a.classified()).isEqualTo(5);
        assertThat(a.lost()).isZero();
        assertThat(a.clean()).isFalse();
    }

    @Test
    void shouldCountARepeatedDeadLetterOnceAndNeitherLostNorDuplicated() {
        ChaosAccounting a = ChaosAccounting.of(PUBLISHED, List.of("T-1", "T-2", "T-3", "T-4"),
                List.of(new DeadLetter("T-5", "bad-input"), new DeadLetter("T-5", "bad-input")));

        assertThat(a.deadLettered()).isEqualTo(1);
        assertThat(a.lost()).isZero();
        assertThat(a.duplicated()).isZero();
        assertThat(a.clean()).isTrue();
    }

    @Test
    void shouldCountATicketWithAResultAndADeadLetterAsClassifiedAndFlagIt() {
        ChaosAccounting a = ChaosAccounting.of(PUBLISHED, PUBLISHED, List.of(new DeadLetter("T-2", "retries-exhausted")));

        assertThat(a.classified()).isEqualTo(5);
        assertThat(a.deadLettered()).isZero();
        assertThat(a.classifiedAndDeadLettered()).isEqualTo(1);
        assertThat(a.clean()).isTrue();
    }

    @Test
    void shouldReportIdsThatWereNeverPublishedAndStillCountTheirRepeats() {
        ChaosAccounting a = ChaosAccounting.of(PUBLISHED, List.of("T-1", "T-2", "T-3", "T-4", "T-5", "X-1", "X-1"),
                List.of(new DeadLetter("X-2", null)));

        assertThat(a.unexpected()).isEqualTo(2);
        assertThat(a.duplicated()).isEqualTo(1);
        assertThat(a.duplicatedIds()).containsExactly("X-1");
        assertThat(a.published()).isEqualTo(5);
    }

    @Test
    void shouldCountARepublishedIdOnce() {
        ChaosAccounting a = ChaosAccounting.of(List.of("T-1", "T-1", "T-2"), List.of("T-1", "T-2"), List.of());

        assertThat(a.published()).isEqualTo(2);
        assertThat(a.clean()).isTrue();
    }

    @Test
    void shouldListAtMostTwentyLostIdsInPublishOrder() {
        List<String> published = new ArrayList<>();
        for (int i = 0; i < 50; i++) {
            published.add("T-" + i);
        }

        ChaosAccounting a = ChaosAccounting.of(published, List.of(), List.of());

        assertThat(a.lost()).isEqualTo(50);
        assertThat(a.lostIds()).hasSize(ChaosAccounting.SAMPLE).startsWith("T-0", "T-1").endsWith("T-19");
    }
}
