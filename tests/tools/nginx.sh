# Sourced by tests, examples and benchmarks: start nginx from Debian on
# 127.0.0.1 over a directory, on ports the OS has free. Never any address
# off loopback (a test's own nginx.conf may listen on other 127.x ones).
#   nginx_start ROOT N   -> starts one server with N listening ports;
#                           sets NGINX_PORTS (space separated) and NGINX_DIR
#   nginx_conf_head DIR, nginx_launch DIR URL... -> for a test's own nginx.conf
#   nginx_slow_pages N SLEEP [LOCATION...] -> a site of N slow pages (below)
#   nginx_stop
#   nginx_log            -> path of the access log ("$port $uri $status" lines;
#                           NGINX_LOG_TIMES=1 adds "$msec $request_time $connection")
nginx_free_port() {
    python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1]); s.close()'
}

# nginx_conf_head DIR [MODULE...]: the start of an nginx.conf for an nginx
# run from DIR (its pid, error log and temp files there; with these modules
# of /usr/lib/nginx/modules, e.g. echo), up to "http {" and the temp paths.
# The caller writes its log format, types and servers and the closing "}".
nginx_conf_head() {
    local dir=$1 m; shift
    [ "$(id -u)" = 0 ] && echo "user root;"   # workers must read the test's private temp dirs
    for m in "$@"; do echo "load_module /usr/lib/nginx/modules/ngx_http_${m}_module.so;"; done
    cat <<CONF
worker_processes 1;
daemon on;
pid $dir/nginx.pid;
error_log $dir/error.log;
events { worker_connections 1024; }
http {
    client_body_temp_path $dir/tmp; proxy_temp_path $dir/tmp;
    fastcgi_temp_path $dir/tmp; uwsgi_temp_path $dir/tmp; scgi_temp_path $dir/tmp;
CONF
}

# nginx_launch DIR URL...: starts the nginx of DIR/nginx.conf and waits
# until each URL answers (any status) and, when nginx logs to
# DIR/access.log, until that request is logged: nginx writes the line after
# the answer, so a test that empties the log next could get it afterwards.
nginx_launch() {
    local dir=$1 url size; shift
    mkdir -p "$dir/tmp"
    /usr/sbin/nginx -c "$dir/nginx.conf" -p "$dir" -e "$dir/error.log" 2>>"$dir/error.log" || {
        cat "$dir/error.log" >&2; return 1; }
    for url in "$@"; do
        size=$(stat -c %s "$dir/access.log" 2>/dev/null || echo 0)
        for _ in $(seq 50); do
            curl -s -o /dev/null "$url" && break
            sleep 0.1
        done
        [ -e "$dir/access.log" ] || continue
        for _ in $(seq 50); do
            [ "$(stat -c %s "$dir/access.log")" -gt "$size" ] && break
            sleep 0.1
        done
    done
}

nginx_start() {
    local root=$1 n=${2:-1}
    NGINX_DIR=$(mktemp -d)
    NGINX_PORTS=""
    local listens="" urls=()
    for _ in $(seq "$n"); do
        local p; p=$(nginx_free_port)
        NGINX_PORTS="$NGINX_PORTS $p"
        listens="$listens listen 127.0.0.1:$p;"
        urls+=("http://127.0.0.1:$p/")
    done
    NGINX_PORTS=${NGINX_PORTS# }
    local times=""
    [ "${NGINX_LOG_TIMES:-0}" = 1 ] && times=' $msec $request_time $connection'
    { nginx_conf_head "$NGINX_DIR"
      cat <<CONF
    log_format port_uri '\$server_port \$uri \$status$times';
    access_log $NGINX_DIR/access.log port_uri;
    types { text/html html; text/plain txt; application/xml xml; }
    default_type application/octet-stream;
    keepalive_requests 100000;
    server { $listens root $root; }
}
CONF
    } > "$NGINX_DIR/nginx.conf"
    nginx_launch "$NGINX_DIR" "${urls[@]}"
}

# nginx_slow_pages N SLEEP [LOCATION...]: in the current directory, site/
# with an index.html linking /p/0.html .. /p/N-1.html, each answered after
# SLEEP seconds (nginx's echo module), served from ng/ on a free port of
# 127.0.0.1 (sets PORT) with these further location blocks; the access log
# ng/access.log has "$uri $status" lines. The caller stops it
# (kill "$(cat ng/nginx.pid)").
nginx_slow_pages() {
    local n=$1 sleep=$2 links="" i; shift 2
    mkdir -p site ng
    for i in $(seq 0 $((n - 1))); do links="$links<a href=\"/p/$i.html\">$i</a>"; done
    echo "<html><body>$links</body></html>" > site/index.html
    PORT=$(nginx_free_port)
    { nginx_conf_head "$PWD/ng" echo
      cat <<CONF
    log_format uri '\$uri \$status';
    access_log $PWD/ng/access.log uri;
    types { text/html html; }
    server {
        listen 127.0.0.1:$PORT; root $PWD/site;
        location /p/ { default_type text/html; echo_sleep $sleep; echo "<html><body>\$uri</body></html>"; }
        $*
    }
}
CONF
    } > ng/nginx.conf
    nginx_launch "$PWD/ng" "http://127.0.0.1:$PORT/index.html"
}

nginx_log() { echo "$NGINX_DIR/access.log"; }

nginx_stop() {
    [ -n "${NGINX_DIR:-}" ] && [ -f "$NGINX_DIR/nginx.pid" ] && kill "$(cat "$NGINX_DIR/nginx.pid")" 2>/dev/null
    sleep 0.1
    rm -rf "${NGINX_DIR:?}"
}
