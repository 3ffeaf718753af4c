package io.quotaflow.demo;

import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/** {@code demo --scenario fallback}, small: it runs, and its report shows what the scenario promises. */
@Order(16) // among the slowest IT classes: started first, the slowest first (pom.xml, Failsafe)
class FallbackDemoIT {

    @Test
    @Timeout(value = 4, unit = TimeUnit.MINUTES)
    void shouldMoveTicketsToTheBackupAndBackTakeTheLongTicketOnTheLongRouteAndAnswerCopiesFromTheCache() {
        ByteArrayOutputStream log = new ByteArrayOutputStream();
        FallbackReport report = FallbackDemo.run(new DemoRun.Options(200, 1_200, 400_000, 5, Duration.ofMinutes(3),
                Duration.ofSeconds(5)), line -> { }, new PrintStream(log, true, StandardCharsets.UTF_8));

        String rendered = report.render();
        assertThat(report.clean()).as(rendered).isTrue();
        assertThat(report.duplicates()).isZero();
        assertThat(report.byRoute().getOrDefault("backup", 0L)).as(rendered).isPositive();
        assertThat(report.byRoute().getOrDefault("primary", 0L)).as(rendered).isPositive();
        assertThat(report.byRoute()).containsEntry("long", 1L);
        assertThat(report.fallbacks()).containsKey("primary -> long (context)");
        assertThat(report.fallbacks().keySet()).anyMatch(k -> k.startsWith("primary -> backup"));
        assertThat(report.http429().values()).allMatch(v -> v == 0);
        assertThat(report.primaryRefused503()).isPositive();
        assertThat(report.cacheHits()).as("the 20 copies of answered tickets").isGreaterThanOrEqualTo(20);
        assertThat(log.toString(StandardCharsets.UTF_8)).contains("the primary is DOWN").contains("the primary is BACK");
    }
}
