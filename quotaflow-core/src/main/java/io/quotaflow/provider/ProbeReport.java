package io.quotaflow.provider;

import java.util.List;
import java.util.Objects;
import java.util.stream.Collectors;

/** What checking one route found: one line per check, and the state the route is in. */
public record ProbeReport(String route, List<ProbeLine> lines, RouteState state) {

    public ProbeReport {
        Objects.requireNonNull(route, "route");
        lines = List.copyOf(lines);
        Objects.requireNonNull(state, "state");
    }

    public boolean failed() {
        return lines.stream().anyMatch(ProbeLine::failed);
    }

    /** The checks in one phrase, for a log line: {@code reachable: …; key: …}. */
    public String summary() {
        return lines.stream().map(l -> (l.failed() ? "FAIL " : "") + l.check() + ": " + l.detail()).collect(Collectors.joining("; "));
    }
}
