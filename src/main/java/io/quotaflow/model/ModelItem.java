package io.quotaflow.model;

import java.util.Objects;

/** One ticket as the model sees it. */
public record ModelItem(String id, String subject, String body) {
    public ModelItem {
        Objects.requireNonNull(id, "id");
    }
}
