package dev.rekon.testing;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

import dev.rekon.cluster.EventRecorder;
import dev.rekon.core.ObjectRef;

/** Rekon's {@link EventRecorder} as a list, for service tables: {@code "Normal ImageUpdated Deployment team/web"}. */
public final class RecordingEvents implements EventRecorder {

    public final List<String> recorded = new CopyOnWriteArrayList<>();

    @Override
    public void normal(ObjectRef about, String reason, String message) {
        recorded.add("Normal " + reason + " " + about);
    }

    @Override
    public void warning(ObjectRef about, String reason, String message) {
        recorded.add("Warning " + reason + " " + about);
    }
}
