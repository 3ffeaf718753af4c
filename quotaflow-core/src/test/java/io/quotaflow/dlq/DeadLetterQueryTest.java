package io.quotaflow.dlq;

import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.OptionalLong;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class DeadLetterQueryTest {

    @Test
    void shouldParsePositionsWithAndWithoutPartition() {
        assertThat(DeadLetterQuery.Position.parse("3:1042")).isEqualTo(new DeadLetterQuery.Position(3, 1042));
        assertThat(DeadLetterQuery.Position.parse(" 1042 ")).isEqualTo(new DeadLetterQuery.Position(null, 1042));
        for (String bad : List.of("", "x", "1:", ":5", "1:2:3", "-1", "2:-5", "1.5")) {
            assertThatThrownBy(() -> DeadLetterQuery.Position.parse(bad)).as(bad).isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining("partition:offset");
        }
    }

    @Test
    void shouldNarrowTheScanToTheAskedPartitionsAndOffsets() {
        DeadLetterQuery q = DeadLetterQuery.builder().offsets(List.of("1:40", "1:7", "2:9")).build();
        assertThat(q.reads(0)).isFalse();
        assertThat(q.reads(1)).isTrue();
        assertThat(q.firstOffset(1)).isEqualTo(OptionalLong.of(7));
        assertThat(q.endOffset(1)).isEqualTo(OptionalLong.of(41));
        assertThat(q.endOffset(2)).isEqualTo(OptionalLong.of(10));

        DeadLetterQuery anyPartition = DeadLetterQuery.builder().offsets(List.of("5")).build();
        assertThat(anyPartition.reads(0)).isTrue();
        assertThat(anyPartition.firstOffset(2)).isEqualTo(OptionalLong.of(5));

        DeadLetterQuery all = DeadLetterQuery.builder().build();
        assertThat(all.reads(4)).isTrue();
        assertThat(all.firstOffset(4)).isEmpty();
        assertThat(all.endOffset(4)).isEmpty();
        assertThat(all.matches(0, 0, null, null)).isTrue();
        assertThat(all.max()).isEqualTo(DeadLetterQuery.DEFAULT_MAX);
    }

    @Test
    void shouldCombineFiltersWithAnd() {
        DeadLetterQuery q = DeadLetterQuery.builder().keys(List.of("A", "B")).kinds(List.of("bad-input")).build();
        assertThat(q.matches(0, 1, "A", "bad-input")).isTrue();
        assertThat(q.matches(0, 1, "B", " bad-input ")).isTrue();
        assertThat(q.matches(0, 1, "C", "bad-input")).isFalse();
        assertThat(q.matches(0, 1, "A", "too-large")).isFalse();
        assertThat(q.matches(0, 1, null, "bad-input")).isFalse();
        assertThat(q.matches(0, 1, "A", null)).isFalse();
        assertThat(q.describe()).isEqualTo("key in [A, B], kind in [bad-input]");
        assertThatThrownBy(() -> DeadLetterQuery.builder().max(0).build()).isInstanceOf(IllegalArgumentException.class);
    }
}
