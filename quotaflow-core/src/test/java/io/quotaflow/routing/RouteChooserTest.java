package io.quotaflow.routing;

import io.quotaflow.settings.Routing;
import io.quotaflow.settings.RouteSettings;
import io.quotaflow.settings.BatchSettings;
import io.quotaflow.llm.ModelItem;
import io.quotaflow.testing.Fixtures;
import io.quotaflow.records.Priority;
import io.quotaflow.ticket.WorkItem;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

class RouteChooserTest {

    private final RouteSettings small = Fixtures.route("small", 8_192, List.of(), "medium");
    private final RouteSettings medium = Fixtures.route("medium", 32_000, List.of(), "large");
    private final RouteSettings large = Fixtures.route("large", 200_000, List.of(), "small");
    private final Routing routing;
    private final RouteChooser chooser;

    RouteChooserTest() {
        Map<String, RouteSettings> byName = new LinkedHashMap<>();
        byName.put("small", small);
        byName.put("medium", medium);
        byName.put("large", large);
        routing = new Routing(byName, "small", Map.of(Priority.BULK, "medium"), Map.of("acme", "large"), Map.of(), Duration.ZERO);
        chooser = new RouteChooser(routing, BatchSettings.ofDefaults());
    }

    private static ModelItem text(int words) {
        return new ModelItem("T", "subject", "lorem ".repeat(words));
    }

    @Test
    void shouldFollowTheRulesTenantFirst() {
        assertThat(((RouteChooser.Routed) chooser.choose(Priority.STANDARD, "other", WorkItem.Routed.NONE, text(10))).route().name())
                .isEqualTo("small");
        assertThat(((RouteChooser.Routed) chooser.choose(Priority.BULK, "other", WorkItem.Routed.NONE, text(10))).route().name())
                .isEqualTo("medium");
        RouteChooser.Routed acme = (RouteChooser.Routed) chooser.choose(Priority.BULK, "acme", WorkItem.Routed.NONE, text(10));
        assertThat(acme.route().name()).isEqualTo("large");
        assertThat(acme.routed()).isEqualTo(WorkItem.Routed.to("large"));
    }

    @Test
    void shouldKeepTheRouteATicketAlreadyTravelsOn() {
        WorkItem.Routed carried = new WorkItem.Routed("medium", "small", "halted");
        RouteChooser.Routed r = (RouteChooser.Routed) chooser.choose(Priority.STANDARD, "acme", carried, text(10));
        assertThat(r.route().name()).isEqualTo("medium");
        assertThat(r.routed()).isEqualTo(carried);
    }

    @Test
    void shouldWalkTheContextFallbackChainToTheFirstRouteThatHoldsTheTicket() {
        RouteChooser.Routed r = (RouteChooser.Routed) chooser.choose(Priority.STANDARD, "x", WorkItem.Routed.NONE, text(60_000));
        assertThat(r.route().name()).isEqualTo("large");
        assertThat(r.routed()).isEqualTo(new WorkItem.Routed("large", "small", "context"));
        assertThat(r.tokens()).isGreaterThan(8_192);
    }

    @Test
    void shouldSayTooLargeWhenNoRouteOfTheChainHoldsItAndStopAtACycle() {
        RouteChooser.Choice c = chooser.choose(Priority.STANDARD, "x", WorkItem.Routed.NONE, text(300_000));
        assertThat(c).isInstanceOf(RouteChooser.TooLarge.class);
        assertThat(((RouteChooser.TooLarge) c).route()).isEqualTo("small");
        assertThat(((RouteChooser.TooLarge) c).budget()).isLessThan(8_192);
    }
}
