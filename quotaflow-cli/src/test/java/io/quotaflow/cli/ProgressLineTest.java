package io.quotaflow.cli;

import org.junit.jupiter.api.Test;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.time.Duration;

import static org.assertj.core.api.Assertions.assertThat;

class ProgressLineTest {

    private final StringWriter err = new StringWriter();

    @Test
    void shouldRewriteTheLineInPlaceOnATerminal() {
        ProgressLine line = new ProgressLine(new PrintWriter(err), true, Duration.ZERO);

        line.update("publishing: 100 lines");
        line.update("publishing: 2 s");
        line.println("line 17: not JSON (skipped)");
        line.update("done");
        line.clear();

        assertThat(err.toString()).isEqualTo("\rpublishing: 100 lines"
                + "\rpublishing: 2 s      "
                + "\r" + " ".repeat(15) + "\r" + "line 17: not JSON (skipped)" + System.lineSeparator()
                + "\rdone"
                + "\r    \r");
    }

    @Test
    void shouldKeepATerminalLineWithinItsWidth() {
        ProgressLine line = new ProgressLine(new PrintWriter(err), true, Duration.ZERO, 40);
        String demo = String.format(java.util.Locale.ROOT, "%5.1fs done %d/%d dlq %d retried %d calls %d 429s %d tok %,d %s",
                1234.5, 100_000, 100_000, 12_345, 54_321, 99_999, 1_234, 987_654_321L, "REBALANCING");

        line.update(demo);

        assertThat(err.toString()).startsWith("\r").hasSize(1 + 39).endsWith("\u2026");
        assertThat(demo).as("the demo's line at its widest").hasSizeGreaterThan(80);
        assertThat(ProgressLine.fit(demo, ProgressLine.DEFAULT_WIDTH)).hasSize(79);
        assertThat(ProgressLine.fit("short", 80)).isEqualTo("short");
    }

    @Test
    void shouldTakeTheWidthFromColumnsWhenTheShellExportsIt() {
        assertThat(ProgressLine.width("132")).isEqualTo(132);
        assertThat(ProgressLine.width(null)).isEqualTo(80);
        assertThat(ProgressLine.width("wide")).isEqualTo(80);
        assertThat(ProgressLine.width("3")).isEqualTo(80);
    }

    @Test
    void shouldPrintPlainLinesNoMoreOftenThanTheIntervalElsewhere() {
        ProgressLine line = new ProgressLine(new PrintWriter(err), false, Duration.ofHours(1));

        line.update("publishing: 100 lines");
        line.println("line 17: not JSON (skipped)");
        line.clear();

        assertThat(err.toString()).isEqualTo("line 17: not JSON (skipped)" + System.lineSeparator());
    }
}
