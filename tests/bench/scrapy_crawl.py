#!/usr/bin/python3
"""The peer of the broad-crawl row (tests/bench/broad_crawl.sh): Scrapy
(Debian's python3-scrapy) crawling from seed URLs, following every <a href>
within the seed's host, obeying robots.txt, one request at a time per host
and DOWNLOAD_DELAY seconds between the starts of two requests to it (not
randomised, as the frontier's politeness.min-delay).

usage: scrapy_crawl.py CONCURRENCY DELAY SEEDS_FILE

The other settings are those Scrapy's documentation recommends for broad
crawls (docs.scrapy.org, "Broad Crawls"): the downloader-aware priority
queue, breadth-first order, no cookies, retries or redirects, logging at
INFO. Prints "pages N" (2xx responses other than robots.txt) at the end."""
import sys
from urllib.parse import urlsplit

import scrapy
from scrapy.crawler import CrawlerProcess


class Broad(scrapy.Spider):
    name = "broad"
    pages = 0

    def start_requests(self):
        for url in open(self.seeds_file).read().split():
            yield scrapy.Request(url)

    def parse(self, response):
        Broad.pages += 1
        host = urlsplit(response.url).netloc
        for href in response.css("a::attr(href)").getall():
            url = response.urljoin(href)
            if urlsplit(url).netloc == host:
                yield scrapy.Request(url)


def main():
    concurrency, delay, seeds = int(sys.argv[1]), float(sys.argv[2]), sys.argv[3]
    process = CrawlerProcess(settings={
        "ROBOTSTXT_OBEY": True,
        "CONCURRENT_REQUESTS": concurrency,
        "CONCURRENT_REQUESTS_PER_DOMAIN": 1,
        "DOWNLOAD_DELAY": delay,
        "RANDOMIZE_DOWNLOAD_DELAY": False,
        "SCHEDULER_PRIORITY_QUEUE": "scrapy.pqueues.DownloaderAwarePriorityQueue",
        "DEPTH_PRIORITY": 1,
        "SCHEDULER_DISK_QUEUE": "scrapy.squeues.PickleFifoDiskQueue",
        "SCHEDULER_MEMORY_QUEUE": "scrapy.squeues.FifoMemoryQueue",
        "REACTOR_THREADPOOL_MAXSIZE": 20,
        "COOKIES_ENABLED": False,
        "RETRY_ENABLED": False,
        "REDIRECT_ENABLED": False,
        "TELNETCONSOLE_ENABLED": False,
        "LOG_LEVEL": "INFO",
        "REQUEST_FINGERPRINTER_IMPLEMENTATION": "2.7",
    })
    process.crawl(Broad, seeds_file=seeds)
    process.start()
    print(f"pages {Broad.pages}")


if __name__ == "__main__":
    main()
