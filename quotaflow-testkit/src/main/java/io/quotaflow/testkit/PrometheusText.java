package io.quotaflow.testkit;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** A parsed Prometheus text exposition (what {@code /metrics} serves): families with HELP, TYPE and samples. */
public final class PrometheusText {

    private static final Pattern SAMPLE = Pattern.compile("^([a-zA-Z_:][a-zA-Z0-9_:]*)(\\{(.*)})?\\s+(\\S+)(\\s+\\S+)?$");
    private static final Pattern LABEL = Pattern.compile("([a-zA-Z_][a-zA-Z0-9_]*)=\"((?:[^\"\\\\]|\\\\.)*)\"");

    /** One sample line. */
    public record Sample(String name, Map<String, String> labels, double value) {
    }

    private final Map<String, String> help = new LinkedHashMap<>();
    private final Map<String, String> type = new LinkedHashMap<>();
    private final List<Sample> samples = new ArrayList<>();

    private PrometheusText() {
    }

    public static PrometheusText parse(String text) {
        PrometheusText out = new PrometheusText();
        for (String line : text.split("\n")) {
            if (line.startsWith("# HELP ")) {
                String[] parts = line.substring(7).split(" ", 2);
                out.help.put(parts[0], parts.length > 1 ? parts[1] : "");
            } else if (line.startsWith("# TYPE ")) {
                String[] parts = line.substring(7).split(" ", 2);
                out.type.put(parts[0], parts.length > 1 ? parts[1].strip() : "");
            } else if (!line.isBlank() && !line.startsWith("#")) {
                Matcher m = SAMPLE.matcher(line.strip());
                if (!m.matches()) {
                    throw new IllegalArgumentException("not a sample line: " + line);
                }
                Map<String, String> labels = new TreeMap<>();
                if (m.group(3) != null) {
                    Matcher l = LABEL.matcher(m.group(3));
                    while (l.find()) {
                        labels.put(l.group(1), l.group(2));
                    }
                }
                out.samples.add(new Sample(m.group(1), labels, Double.parseDouble(m.group(4))));
            }
        }
        return out;
    }

    /** The HELP text of a family (as named in the HELP line: counters without {@code _total}). */
    public Optional<String> help(String family) {
        return Optional.ofNullable(help.get(family));
    }

    public Optional<String> type(String family) {
        return Optional.ofNullable(type.get(family));
    }

    public List<String> families() {
        return List.copyOf(type.keySet());
    }

    /** Samples of exactly this metric name ({@code quotaflow_calls_total}, {@code ..._bucket}). */
    public List<Sample> samples(String name) {
        return samples.stream().filter(s -> s.name().equals(name)).toList();
    }

    /** The value of the one sample of {@code name} with these labels (others may exist), or empty. */
    public Optional<Double> value(String name, Map<String, String> labels) {
        List<Sample> matching = samples(name).stream().filter(s -> s.labels().entrySet().containsAll(labels.entrySet())).toList();
        if (matching.size() > 1) {
            throw new IllegalArgumentException(matching.size() + " samples of " + name + " match " + labels);
        }
        return matching.stream().findFirst().map(Sample::value);
    }

    /** Sum over every sample of {@code name} matching these labels. */
    public double sum(String name, Map<String, String> labels) {
        return samples(name).stream().filter(s -> s.labels().entrySet().containsAll(labels.entrySet()))
                .mapToDouble(Sample::value).sum();
    }
}
