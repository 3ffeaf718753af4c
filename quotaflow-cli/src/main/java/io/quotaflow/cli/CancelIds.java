package io.quotaflow.cli;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;

/** The ticket ids {@code quotaflow cancel} was given: its arguments, with {@code -} read from stdin. */
final class CancelIds {

    private CancelIds() {
    }

    /**
     * The distinct ids, in the order given; {@code -} stands for the lines of {@code stdin}
     * (stripped, blank ones ignored), read once however often it appears.
     *
     * @throws IllegalArgumentException when an argument is blank or no id is left
     */
    static List<String> resolve(List<String> args, InputStream stdin) throws IOException {
        LinkedHashSet<String> ids = new LinkedHashSet<>();
        boolean stdinRead = false;
        for (String arg : args) {
            if ("-".equals(arg)) {
                if (!stdinRead) {
                    ids.addAll(lines(stdin));
                    stdinRead = true;
                }
            } else if (arg.isBlank()) {
                throw new IllegalArgumentException("a ticket id must not be blank");
            } else {
                ids.add(arg);
            }
        }
        if (ids.isEmpty()) {
            throw new IllegalArgumentException("no ticket id given (standard input had none)");
        }
        return List.copyOf(ids);
    }

    private static List<String> lines(InputStream stdin) throws IOException {
        List<String> lines = new ArrayList<>();
        BufferedReader reader = new BufferedReader(new InputStreamReader(stdin, StandardCharsets.UTF_8));
        String line;
        while ((line = reader.readLine()) != null) {
            if (!line.isBlank()) {
                lines.add(line.strip());
            }
        }
        return lines;
    }
}
