package io.quotaflow.testkit;

import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * The anchors GitHub gives a Markdown page's headings, for the tests that check links into the docs
 * (alert runbook URLs, cross references). GitHub's rule, written out because no library in the
 * build implements it: lower case, drop every character but letters, digits, spaces, hyphens and
 * underscores, spaces to hyphens, and a {@code -1}, {@code -2}... suffix on a repeated anchor.
 * Headings inside fenced code blocks are not headings.
 */
public final class Markdown {

    private Markdown() {
    }

    /** Every heading's anchor, in the page's order. */
    public static Set<String> anchors(String markdown) {
        Set<String> anchors = new LinkedHashSet<>();
        Map<String, Integer> seen = new HashMap<>();
        boolean fenced = false;
        for (String line : markdown.split("\\R")) {
            if (line.startsWith("```")) {
                fenced = !fenced;
            } else if (!fenced && line.matches("#{1,6} .*")) {
                String slug = slug(line.replaceFirst("^#+ ", ""));
                int n = seen.merge(slug, 1, Integer::sum);
                anchors.add(n == 1 ? slug : slug + "-" + (n - 1));
            }
        }
        return anchors;
    }

    /** One heading's anchor, before de-duplication. */
    public static String slug(String heading) {
        return heading.strip().toLowerCase(Locale.ROOT).replaceAll("[^\\p{L}\\p{N} _-]", "").replace(' ', '-');
    }
}
