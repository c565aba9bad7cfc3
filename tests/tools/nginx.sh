# Sourced by tests, examples and benchmarks: start nginx from Debian on
# 127.0.0.1 over a directory, on ports the OS has free. Never any other address.
#   nginx_start ROOT N   -> starts one server with N listening ports;
#                           sets NGINX_PORTS (space separated) and NGINX_DIR
#   nginx_stop
#   nginx_log            -> path of the access log ("$port $uri $status" lines)
nginx_free_port() {
    python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1]); s.close()'
}

nginx_start() {
    local root=$1 n=${2:-1}
    NGINX_DIR=$(mktemp -d)
    NGINX_PORTS=""
    local listens=""
    for _ in $(seq "$n"); do
        local p; p=$(nginx_free_port)
        NGINX_PORTS="$NGINX_PORTS $p"
        listens="$listens listen 127.0.0.1:$p;"
    done
    NGINX_PORTS=${NGINX_PORTS# }
    mkdir -p "$NGINX_DIR/tmp"
    local user=""
    [ "$(id -u)" = 0 ] && user="user root;"   # workers must read the test's private temp dirs
    cat > "$NGINX_DIR/nginx.conf" <<CONF
$user
worker_processes 1;
daemon on;
pid $NGINX_DIR/nginx.pid;
error_log $NGINX_DIR/error.log;
events { worker_connections 1024; }
http {
    log_format port_uri '\$server_port \$uri \$status';
    access_log $NGINX_DIR/access.log port_uri;
    client_body_temp_path $NGINX_DIR/tmp; proxy_temp_path $NGINX_DIR/tmp;
    fastcgi_temp_path $NGINX_DIR/tmp; uwsgi_temp_path $NGINX_DIR/tmp; scgi_temp_path $NGINX_DIR/tmp;
    types { text/html html; text/plain txt; application/xml xml; }
    default_type application/octet-stream;
    keepalive_requests 100000;
    server { $listens root $root; }
}
CONF
    /usr/sbin/nginx -c "$NGINX_DIR/nginx.conf" -p "$NGINX_DIR" -e "$NGINX_DIR/error.log" 2>>"$NGINX_DIR/error.log" || {
        cat "$NGINX_DIR/error.log" >&2; return 1; }
    for p in $NGINX_PORTS; do
        for _ in $(seq 50); do
            curl -s -o /dev/null "http://127.0.0.1:$p/" && break
            sleep 0.1
        done
    done
}

nginx_log() { echo "$NGINX_DIR/access.log"; }

nginx_stop() {
    [ -n "${NGINX_DIR:-}" ] && [ -f "$NGINX_DIR/nginx.pid" ] && kill "$(cat "$NGINX_DIR/nginx.pid")" 2>/dev/null
    sleep 0.1
    rm -rf "${NGINX_DIR:?}"
}
