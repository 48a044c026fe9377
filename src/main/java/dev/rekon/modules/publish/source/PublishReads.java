package dev.rekon.modules.publish.source;

import java.util.concurrent.Executor;
import java.util.concurrent.Executors;

/**
 * The threads a publication's blocking reads run on when they are made beside one another (the template and
 * release meta from the apiserver, the component version and its small blobs from the registry): each waits on
 * the network, not the CPU, so they do not belong to the common pool, which has one thread per core. It schedules
 * nothing: every read starts and is joined inside one load of one key, so the loop's work queue still decides who
 * works which key, and when.
 */
public final class PublishReads {

    public static final Executor EXECUTOR = Executors.newCachedThreadPool(r -> {
        Thread t = new Thread(r, "rekon-publish-read");
        t.setDaemon(true);
        return t;
    });

    private PublishReads() {
    }
}
