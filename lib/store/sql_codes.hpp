// The stored codes of the states (lib/policy/model.hpp) as SQL text, so a
// statement names a state instead of a bare number:
//   "UPDATE urls SET state = " SQL_URL_QUEUED " WHERE state = " SQL_URL_LEASED
// Macros, because only adjacent string literals join at compile time; the
// static_asserts keep them equal to the enums. Private to lib/store/.
#pragma once

#include "policy/model.hpp"

#define SQL_URL_QUEUED "0"
#define SQL_URL_LEASED "1"
#define SQL_URL_DONE "2"
#define SQL_URL_FAILED "3"
#define SQL_URL_BLOCKED "4"
#define SQL_URL_DISABLED "5"

#define SQL_QUEUE_ACTIVE "0"
#define SQL_QUEUE_INACTIVE "1"
#define SQL_QUEUE_RETIRED "2"
#define SQL_QUEUE_RETIRED_BY_HAND "3"

#define SQL_SCHED_READY "0"
#define SQL_SCHED_SLEEPING "1"
#define SQL_SCHED_IDLE "2"

namespace frontier::sql_codes_check {
constexpr int code(const char* s) { return s[0] - '0'; }
static_assert(code(SQL_URL_QUEUED) == static_cast<int>(UrlState::queued));
static_assert(code(SQL_URL_LEASED) == static_cast<int>(UrlState::leased));
static_assert(code(SQL_URL_DONE) == static_cast<int>(UrlState::done));
static_assert(code(SQL_URL_FAILED) == static_cast<int>(UrlState::failed));
static_assert(code(SQL_URL_BLOCKED) == static_cast<int>(UrlState::blocked));
static_assert(code(SQL_URL_DISABLED) == static_cast<int>(UrlState::disabled));
static_assert(code(SQL_QUEUE_ACTIVE) == static_cast<int>(QueueState::active));
static_assert(code(SQL_QUEUE_INACTIVE) == static_cast<int>(QueueState::inactive));
static_assert(code(SQL_QUEUE_RETIRED) == static_cast<int>(QueueState::retired));
static_assert(code(SQL_QUEUE_RETIRED_BY_HAND) == static_cast<int>(QueueState::retired_by_hand));
static_assert(code(SQL_SCHED_READY) == static_cast<int>(QueueSched::ready));
static_assert(code(SQL_SCHED_SLEEPING) == static_cast<int>(QueueSched::sleeping));
static_assert(code(SQL_SCHED_IDLE) == static_cast<int>(QueueSched::idle));
}  // namespace frontier::sql_codes_check
