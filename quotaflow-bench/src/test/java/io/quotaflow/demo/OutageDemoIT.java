package io.quotaflow.demo;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/** {@code demo --scenario outage}, small: its report shows the hand-offs, dead letters and replay it announces. */
class OutageDemoIT {

    @Test
    @Timeout(value = 5, unit = TimeUnit.MINUTES)
    void shouldHandOffTheInteractiveTicketsThatArriveDuringTheOutage() {
        ByteArrayOutputStream log = new ByteArrayOutputStream();
        DemoReport report = DemoRun.run(new DemoRun.Options(120, 600, 150_000, 5, Duration.ofMinutes(4), Duration.ofSeconds(5),
                DemoRun.Scenario.OUTAGE), p -> { }, new PrintStream(log, true, StandardCharsets.UTF_8));

        String rendered = report.render() + log.toString(StandardCharsets.UTF_8);
        assertThat(report.clean()).as(rendered).isTrue();
        assertThat(report.duplicates()).isZero();
        assertThat(report.http429()).isZero();
        assertThat(report.handedOff()).as("the interactive tickets that arrive while the route is down; %s", rendered)
                .isEqualTo(DemoRun.OUTAGE_INTERACTIVE);
        assertThat(report.http503()).isPositive();
        assertThat(report.replayed()).as(rendered).isPositive();
        assertThat(log.toString(StandardCharsets.UTF_8)).contains(DemoRun.OUTAGE_INTERACTIVE + " interactive tickets arrive during the outage");
    }
}
