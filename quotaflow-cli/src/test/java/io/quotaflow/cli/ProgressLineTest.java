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
    void shouldPrintPlainLinesNoMoreOftenThanTheIntervalElsewhere() {
        ProgressLine line = new ProgressLine(new PrintWriter(err), false, Duration.ofHours(1));

        line.update("publishing: 100 lines");
        line.println("line 17: not JSON (skipped)");
        line.clear();

        assertThat(err.toString()).isEqualTo("line 17: not JSON (skipped)" + System.lineSeparator());
    }
}
