package io.quotaflow.cli;

import org.junit.jupiter.api.Test;

import java.io.ByteArrayInputStream;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class CancelIdsTest {

    private static InputStream stdin(String text) {
        return new ByteArrayInputStream(text.getBytes(StandardCharsets.UTF_8));
    }

    @Test
    void shouldReadStandardInputInPlaceOfADashStrippedAndWithoutBlankLines() throws Exception {
        List<String> ids = CancelIds.resolve(List.of("T-1", "-", "T-9"), stdin("T-2\n\n  T-3 \r\nT-1\n"));

        assertThat(ids).containsExactly("T-1", "T-2", "T-3", "T-9");
    }

    @Test
    void shouldReadStandardInputOnceAndNotWithoutADash() throws Exception {
        assertThat(CancelIds.resolve(List.of("-", "-"), stdin("A\nB\n"))).containsExactly("A", "B");
        assertThat(CancelIds.resolve(List.of("C"), stdin("A\n"))).containsExactly("C");
    }

    @Test
    void shouldRefuseABlankIdOrNoIdAtAll() {
        assertThatThrownBy(() -> CancelIds.resolve(List.of("T-1", " "), stdin("")))
                .hasMessage("a ticket id must not be blank");
        assertThatThrownBy(() -> CancelIds.resolve(List.of("-"), stdin("\n\n")))
                .hasMessageContaining("no ticket id given");
    }
}
