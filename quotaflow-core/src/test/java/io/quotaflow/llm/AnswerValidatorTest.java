package io.quotaflow.llm;

import io.quotaflow.settings.ModelSettings;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

class AnswerValidatorTest {

    private final AnswerValidator validator = new AnswerValidator(ModelSettings.DEFAULT_CATEGORIES, ModelSettings.DEFAULT_URGENCIES);

    @Test
    void shouldAcceptAnAnswerForEveryId() {
        var v = validator.validate("{\"results\":[{\"id\":\"a\",\"category\":\"billing\",\"urgency\":\"low\"},"
                + "{\"id\":\"b\",\"category\":\"Shipping\",\"urgency\":\"CRITICAL\"}]}", List.of("a", "b"));
        assertThat(v.invalid()).isEmpty();
        assertThat(v.labels()).containsEntry("a", new ModelOutcome.Label("billing", "low"))
                .containsEntry("b", new ModelOutcome.Label("shipping", "critical"));
    }

    @Test
    void shouldReportMissingIdsAndValuesOutsideTheClosedSets() {
        var v = validator.validate("{\"results\":[{\"id\":\"a\",\"category\":\"refunds\",\"urgency\":\"low\"},"
                + "{\"id\":\"b\",\"category\":\"billing\",\"urgency\":\"whenever\"},"
                + "{\"id\":\"zzz\",\"category\":\"billing\",\"urgency\":\"low\"}]}", List.of("a", "b", "c"));
        assertThat(v.labels()).isEmpty();
        assertThat(v.invalid()).containsOnlyKeys("a", "b", "c");
        assertThat(v.invalid().get("a")).contains("category");
        assertThat(v.invalid().get("b")).contains("urgency");
        assertThat(v.invalid().get("c")).contains("missing");
        assertThat(v.unknownIds()).isEqualTo(1);
    }

    @Test
    void shouldRejectMalformedJsonForTheWholeBatch() {
        var v = validator.validate("{\"results\":[{\"id\":\"a\",", List.of("a", "b"));
        assertThat(v.labels()).isEmpty();
        assertThat(v.invalid()).containsOnlyKeys("a", "b");
    }

    @Test
    void shouldRejectAnIdAnsweredTwice() {
        var v = validator.validate("{\"results\":[{\"id\":\"a\",\"category\":\"billing\",\"urgency\":\"low\"},"
                + "{\"id\":\"a\",\"category\":\"other\",\"urgency\":\"low\"}]}", List.of("a"));
        assertThat(v.labels()).isEmpty();
        assertThat(v.invalid().get("a")).contains("more than once");
    }

    @Test
    void shouldKeepTheEntriesACutAnswerClosedBeforeTheCut() {
        String whole = "{\"results\":[{\"id\":\"a\",\"category\":\"billing\",\"urgency\":\"low\"},"
                + "{\"id\":\"b\",\"category\":\"shipping\",\"urgency\":\"high\"},"
                + "{\"id\":\"c\",\"category\":\"account\",\"urgency\":\"critical\"}]}";
        // every cut inside c's entry keeps a and b, whole, and asks again for c alone
        for (int cut = whole.indexOf("{\"id\":\"c\""); cut < whole.length() - 2; cut++) {
            var v = validator.validate(whole.substring(0, cut), List.of("a", "b", "c"), true);
            assertThat(v.labels()).as("cut at %d", cut).containsOnlyKeys("a", "b");
            assertThat(v.invalid()).as("cut at %d", cut).containsOnlyKeys("c");
        }
        var cutInB = validator.validate(whole.substring(0, whole.indexOf("\"high\"") + 3), List.of("a", "b", "c"), true);
        assertThat(cutInB.labels()).containsOnlyKeys("a");
        assertThat(cutInB.invalid()).containsOnlyKeys("b", "c");
        var cutValue = validator.validate("{\"results\":[{\"id\":\"a\",\"category\":\"billing\",\"urgency\":\"low", List.of("a"), true);
        assertThat(cutValue.labels()).as("a value cut after a label's letters is not that label").isEmpty();
        assertThat(validator.validate("{\"resu", List.of("a"), true).invalid()).containsOnlyKeys("a");
    }

    @Test
    void shouldStillRejectAMalformedAnswerThatWasNotCut() {
        String half = "{\"results\":[{\"id\":\"a\",\"category\":\"billing\",\"urgency\":\"low\"},{\"id\":\"b\",";
        assertThat(validator.validate(half, List.of("a", "b"), false).labels()).isEmpty();
        assertThat(validator.validate(half, List.of("a", "b"), true).labels()).containsOnlyKeys("a");
    }
}
